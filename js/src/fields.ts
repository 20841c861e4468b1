/** Reading the emulator's JSON answers field by field: a field of the wrong type is an `unexpected_answer`, never a crash later. */

import { EmulatorError } from "./errors.js";
import { isObject } from "./http.js";

/** A JSON object from the emulator, read by `path` (for the error a wrong shape raises). */
export class Fields {
    constructor(
        private readonly body: Record<string, unknown>,
        private readonly path: string,
    ) {}

    static of(value: unknown, path: string): Fields {
        if (!isObject(value)) throw unexpected(path, "an object", value);
        return new Fields(value, path);
    }

    has(key: string): boolean {
        return this.body[key] !== undefined && this.body[key] !== null;
    }

    raw(key: string): unknown {
        return this.body[key];
    }

    string(key: string): string {
        const value = this.body[key];
        if (typeof value !== "string") throw unexpected(`${this.path}.${key}`, "a string", value);
        return value;
    }

    optionalString(key: string): string | null {
        return this.has(key) ? this.string(key) : null;
    }

    integer(key: string): number {
        const value = this.body[key];
        if (typeof value !== "number" || !Number.isSafeInteger(value)) throw unexpected(`${this.path}.${key}`, "an integer", value);
        return value;
    }

    optionalInteger(key: string): number | null {
        return this.has(key) ? this.integer(key) : null;
    }

    /** A string or an integer id, as a string (the emulator's mail ids are hex strings). */
    id(key: string): string {
        const value = this.body[key];
        if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
        return this.string(key);
    }

    strings(key: string): readonly string[] {
        const value = this.body[key] ?? [];
        if (!Array.isArray(value) || !value.every((item): item is string => typeof item === "string")) {
            throw unexpected(`${this.path}.${key}`, "a list of strings", value);
        }
        return value;
    }

    /** Scopes: the emulator writes them as one space-separated string (as OAuth does); a list is read too. */
    scopes(key: string): readonly string[] {
        const value = this.body[key];
        if (typeof value === "string") return value.split(" ").filter((scope) => scope.length > 0);
        return this.strings(key);
    }

    list(key: string): readonly unknown[] {
        const value = this.body[key] ?? [];
        if (!Array.isArray(value)) throw unexpected(`${this.path}.${key}`, "a list", value);
        return value;
    }

    object(key: string): Record<string, unknown> | null {
        const value = this.body[key];
        if (value === undefined || value === null) return null;
        if (!isObject(value)) throw unexpected(`${this.path}.${key}`, "an object", value);
        return value;
    }
}

function unexpected(where: string, expected: string, value: unknown): EmulatorError {
    const shown = JSON.stringify(value) ?? String(value);
    return new EmulatorError("unexpected_answer", `${where} is not ${expected}: ${shown.slice(0, 200)}`, 200, where.split(".")[0] ?? "");
}

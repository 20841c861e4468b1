/** A small HTTP client on Node's fetch: JSON or a form in, the answer back whatever its status, redirects never followed. */

import { EmulatorError } from "./errors.js";

/** The largest answer read from the emulator (its admin answers are small; a mailbox is bounded). */
export const MAX_BODY = 16 * 1024 * 1024;

/** An HTTP answer: status, headers (lowercase names) and body text. */
export interface Answer {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly text: string;
}

export interface RequestOptions {
    json?: unknown;
    form?: Readonly<Record<string, string>>;
    headers?: Readonly<Record<string, string>>;
    timeoutMs?: number;
}

/** Sends one request (redirects returned, not followed) and returns the answer, whatever its status. */
export async function request(method: string, url: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | undefined;
    if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers["Content-Type"] = "application/json";
    } else if (options.form !== undefined) {
        body = new URLSearchParams(options.form).toString();
        headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    const timeoutMs = options.timeoutMs ?? 30_000;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
        const response = await fetch(url, { method, headers, redirect: "manual", signal: abort.signal, ...(body === undefined ? {} : { body }) });
        const text = await response.text();
        if (text.length > MAX_BODY) {
            throw new EmulatorError("response_too_large", `the answer is over ${MAX_BODY} bytes`, response.status, new URL(url).pathname);
        }
        const names: Record<string, string> = {};
        response.headers.forEach((value, name) => {
            names[name.toLowerCase()] = value;
        });
        return { status: response.status, headers: names, text };
    } catch (error) {
        if (error instanceof EmulatorError) throw error;
        const path = new URL(url).pathname;
        if (abort.signal.aborted) throw new EmulatorError("timeout", `no answer within ${timeoutMs} ms`, 0, path);
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new EmulatorError("unreachable", cause?.code ?? cause?.message ?? String(error), 0, path);
    } finally {
        clearTimeout(timer);
    }
}

/** The answer's body as JSON, or `undefined` when it is not JSON. */
export function jsonOf(answer: Answer): unknown {
    try {
        return JSON.parse(answer.text) as unknown;
    } catch {
        return undefined;
    }
}

/** Whether `value` is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The emulator's refusal as an error: `{"error", "error_description"}` (Apple's shape) or `{"error", "reason"}`. */
export function errorOf(answer: Answer, path: string): EmulatorError {
    const body = jsonOf(answer);
    if (isObject(body) && typeof body["error"] === "string") {
        const described = body["error_description"] ?? body["reason"];
        return new EmulatorError(body["error"], typeof described === "string" ? described : "", answer.status, path);
    }
    return new EmulatorError("http_error", answer.text.slice(0, 500), answer.status, path);
}

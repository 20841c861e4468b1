/** `juice emulator --ready-json`'s line: `{"ready": true, "url", "issuer", "port", "smtp_port"}`. */

import { isObject } from "./http.js";

/** Where a started emulator listens, as it reported it. */
export interface ReadyLine {
    readonly url: string;
    readonly issuer: string;
    readonly port: number;
    /** `null` when the private email relay does not run. */
    readonly smtpPort: number | null;
}

function isPort(value: unknown): value is number {
    return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535;
}

function isURL(value: unknown): value is string {
    return typeof value === "string" && (value.startsWith("http://") || value.startsWith("https://"));
}

/** The fields of the ready line, or `null` for any other line (what the process says is checked before it is used). */
export function parseReadyLine(line: string): ReadyLine | null {
    if (!line.startsWith("{")) return null;
    let fields: unknown;
    try {
        fields = JSON.parse(line) as unknown;
    } catch {
        return null;
    }
    if (!isObject(fields) || fields["ready"] !== true) return null;
    const { url, issuer, port } = fields;
    const smtpPort = fields["smtp_port"] ?? null;
    if (!isPort(port) || !(smtpPort === null || isPort(smtpPort)) || !isURL(url) || !isURL(issuer)) return null;
    return { url, issuer, port, smtpPort };
}

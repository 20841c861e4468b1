/**
 * Failure injection (`/emulator/admin/failures`), typed by kind: what each kind takes is what
 * docs/emulator.md's table says it takes ("Failure injection and request capture").
 */

import { Fields } from "./fields.js";

/** Hide My Email domains the emulator issues addresses on. */
export type RelayDomain = "private.icloud.com" | "privaterelay.appleid.com" | "icloud.com";

interface Counted {
    /** How many requests (tokens, notifications) it applies to (1 – 10000); left out: until cleared. */
    count?: number;
}
interface ForClient {
    /** A bundle id or Services ID: only that client's requests; left out: every client. */
    clientId?: string;
}

/** The options each kind of failure takes. */
export interface FailureOptionsByKind {
    /** `/auth/token` answers `status` (500 – 599, default 503) `server_error`. */
    token_server_error: Counted & ForClient & { status?: number };
    /** `/auth/token` answers 400 `invalid_grant`, whatever the request. */
    token_invalid_grant: Counted & ForClient;
    /** `/auth/token` answers 400 `invalid_client`, whatever the request. */
    token_invalid_client: Counted & ForClient;
    /** `/auth/token` answers 200 with a JSON body cut off mid-object. */
    token_malformed_json: Counted & ForClient;
    /** `/auth/token` answers as usual after `delaySeconds` (over 0, at most 60). */
    token_delay: Counted & ForClient & { delaySeconds: number };
    /** `/auth/keys` answers `status` (default 503). */
    keys_server_error: Counted & { status?: number };
    /** `/auth/keys` answers as usual after `delaySeconds` (at most 60). */
    keys_delay: Counted & { delaySeconds: number };
    /** Discovery names the issuer `https://account.apple.com`; tokens keep the emulator's `iss`. */
    issuer_drift: Counted;
    /** Identity tokens carry no `email`, `email_verified` or `is_private_email`. */
    omit_email: Counted & ForClient;
    /** Notifications to the app (`clientId`: a bundle id) are never sent, and given up. */
    drop_notifications: Counted & ForClient;
    /** New Hide My Email addresses (of the client) are issued on `relayDomain`, until cleared. */
    relay_domain: ForClient & { relayDomain: RelayDomain };
}

/** A kind of failure (`rotate_signing_key` is `emulator.rotateKeys()`: it happens at once and is not kept). */
export type FailureKind = keyof FailureOptionsByKind;

/** `fail(kind)` needs options only for the kinds with a required one (`token_delay`, `keys_delay`, `relay_domain`). */
export type FailureArguments<K extends FailureKind> = object extends FailureOptionsByKind[K]
    ? [options?: FailureOptionsByKind[K]]
    : [options: FailureOptionsByKind[K]];

/** A failure in force, as the emulator lists it. */
export interface Failure {
    readonly id: string;
    readonly kind: string;
    /** `null`: every client. */
    readonly clientId: string | null;
    /** `null`: until cleared. */
    readonly remaining: number | null;
    readonly delaySeconds: number | null;
    readonly status: number | null;
    readonly relayDomain: string | null;
}

/** A failure this test added: `clear()` removes it (a no-op once it was used up or everything was reset). */
export interface FailureHandle extends Failure {
    clear(): Promise<void>;
}

/** The JSON body of `POST /emulator/admin/failures` for `kind` and its options. */
export function failureBody(kind: FailureKind, options: object = {}): Record<string, unknown> {
    const names: Record<string, string> = { clientId: "client_id", count: "count", delaySeconds: "delay_seconds", status: "status", relayDomain: "relay_domain" };
    const body: Record<string, unknown> = { kind };
    for (const [key, value] of Object.entries(options)) {
        if (value === undefined) continue;
        body[names[key] ?? key] = value;
    }
    return body;
}

export function parseFailure(raw: unknown): Failure {
    const f = Fields.of(raw, "failures");
    const number = (key: string): number | null => {
        const value = f.raw(key);
        return typeof value === "number" ? value : null;
    };
    return {
        id: f.id("id"),
        kind: f.string("kind"),
        clientId: f.optionalString("client_id"),
        remaining: f.optionalInteger("remaining"),
        delaySeconds: number("delay_seconds"),
        status: f.optionalInteger("status"),
        relayDomain: f.optionalString("relay_domain"),
    };
}

/** A client secret as the emulator captured it: its JOSE header and claims, decoded (`null` parts when unreadable). */
export interface CapturedClientSecret {
    readonly header: Readonly<Record<string, unknown>> | null;
    readonly claims: Readonly<Record<string, unknown>> | null;
}

/**
 * A request a backend (or a browser) made to one of Apple's endpoints, as the emulator captured it: never a
 * code, token, password, state, nonce or a client secret's signature.
 */
export interface CapturedRequest {
    readonly id: string;
    /** Unix seconds on the emulator's clock (milliseconds kept). */
    readonly receivedAt: number;
    readonly method: string;
    readonly path: string;
    readonly clientId: string | null;
    readonly grantType: string | null;
    readonly redirectUri: string | null;
    /** `null` when the request carried none. */
    readonly clientSecret: CapturedClientSecret | null;
    /** The emulator's answer (an injected failure's included). */
    readonly status: number;
    readonly error: string | null;
}

export function parseCapturedRequest(raw: unknown): CapturedRequest {
    const r = Fields.of(raw, "requests");
    const secret = r.object("client_secret");
    const part = (key: string): Record<string, unknown> | null => {
        const value = secret?.[key];
        return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    };
    const receivedAt = r.raw("received_at");
    return {
        id: r.id("id"),
        receivedAt: typeof receivedAt === "number" ? receivedAt : 0,
        method: r.string("method"),
        path: r.string("path"),
        clientId: r.optionalString("client_id"),
        grantType: r.optionalString("grant_type"),
        redirectUri: r.optionalString("redirect_uri"),
        clientSecret: secret === null ? null : { header: part("header"), claims: part("claims") },
        status: r.integer("status"),
        error: r.optionalString("error"),
    };
}

/** What the emulator answers, as read-only objects (times are Unix seconds). */

import { createHash } from "node:crypto";
import { Fields } from "./fields.js";

const inspect = Symbol.for("nodejs.util.inspect.custom");

/** The SHA-256 of `value` (UTF-8) as lowercase hex: how the emulator lists the codes and tokens it issued. */
export function sha256Hex(value: string): string {
    return createHash("sha256").update(value, "utf8").digest("hex");
}

/** The once-only name and email a configuration or seed gives an Apple ID. */
export interface AppleIDConfig {
    email: string;
    password: string;
    first_name: string;
    last_name: string;
}

/** An Apple ID a test signs in with (the configuration's `apple_ids[]` entry). Its password is never printed. */
export class AppleID {
    constructor(
        readonly email: string,
        readonly password: string,
        readonly firstName = "",
        readonly lastName = "",
    ) {}

    /** The entry for a configuration or `emulator.seed({appleIds: […]})`. */
    config(): AppleIDConfig {
        return { email: this.email, password: this.password, first_name: this.firstName, last_name: this.lastName };
    }

    toJSON(): Omit<AppleIDConfig, "password"> {
        return { email: this.email, first_name: this.firstName, last_name: this.lastName };
    }

    [inspect](): string {
        return `AppleID(${this.email})`;
    }
}

/** The emulator's clock: `now` and its `offset` from the real time, in seconds. */
export interface ClockState {
    readonly now: number;
    readonly offset: number;
}

export interface IssuedCode {
    readonly digest: string;
    readonly clientId: string;
    readonly appleId: string;
    readonly scopes: readonly string[];
    readonly issuedAt: number;
    readonly expiresAt: number;
    readonly usedAt: number | null;
    readonly device: boolean;
    /** Whether this entry is the code `code` (the emulator keeps only its digest). */
    isFor(code: string): boolean;
}

export interface IssuedToken {
    readonly digest: string;
    /** `refresh`, `access` or `migration`. */
    readonly kind: string;
    readonly clientId: string;
    readonly appleId: string;
    readonly scopes: readonly string[];
    readonly issuedAt: number;
    readonly expiresAt: number | null;
    readonly revokedAt: number | null;
    /** Whether this entry is the token `token`. */
    isFor(token: string): boolean;
}

/** What the emulator issued for an app (its bundle id and Services IDs), oldest first. */
export interface Issued {
    readonly bundleId: string;
    readonly codes: readonly IssuedCode[];
    readonly tokens: readonly IssuedToken[];
}

export function parseIssued(body: unknown): Issued {
    const issued = Fields.of(body, "issued");
    const codes = issued.list("codes").map((raw): IssuedCode => {
        const c = Fields.of(raw, "issued.codes[]");
        const digest = c.string("digest");
        return {
            digest,
            clientId: c.string("client_id"),
            appleId: c.string("apple_id"),
            scopes: c.scopes("scopes"),
            issuedAt: c.integer("issued_at"),
            expiresAt: c.integer("expires_at"),
            usedAt: c.optionalInteger("used_at"),
            device: c.raw("device") === true || c.raw("device") === 1, // SQLite's 1
            isFor: (code) => digest === sha256Hex(code),
        };
    });
    const tokens = issued.list("tokens").map((raw): IssuedToken => {
        const t = Fields.of(raw, "issued.tokens[]");
        const digest = t.string("digest");
        return {
            digest,
            kind: t.string("kind"),
            clientId: t.string("client_id"),
            appleId: t.string("apple_id"),
            scopes: t.scopes("scopes"),
            issuedAt: t.integer("issued_at"),
            expiresAt: t.optionalInteger("expires_at"),
            revokedAt: t.optionalInteger("revoked_at"),
            isFor: (token) => digest === sha256Hex(token),
        };
    });
    return { bundleId: issued.string("bundle_id"), codes, tokens };
}

/** A message the private email relay delivered to an Apple ID (`body` and `headers` only from `emulator.mail(id)`). */
export interface MailMessage {
    /** The emulator's id (a hex string). */
    readonly id: string;
    /** The header `From` address. */
    readonly from: string;
    /** The relay address it was sent to. */
    readonly to: string;
    /** The Apple ID it was forwarded to. */
    readonly deliveredTo: string;
    readonly subject: string;
    readonly receivedAt: number;
    /** Octets. */
    readonly size: number;
    readonly headers: string | null;
    readonly body: string | null;
}

export function parseMail(body: unknown): MailMessage {
    const m = Fields.of(body, "mail");
    return {
        id: m.id("id"),
        from: m.string("from"),
        to: m.string("to"),
        deliveredTo: m.string("delivered_to"),
        subject: m.string("subject"),
        receivedAt: m.integer("received_at"),
        size: m.integer("size"),
        headers: m.optionalString("headers"),
        body: m.optionalString("body"),
    };
}

/** A server-to-server notification in the emulator's outbox, and how its delivery went. */
export interface Notification {
    readonly id: string;
    /** `consent-revoked`, `email-disabled`, `email-enabled`, `account-delete` (or `test`). */
    readonly type: string;
    readonly appleId: string;
    readonly audience: string;
    readonly url: string;
    /** `pending`, `delivered` or `failed` (given up). */
    readonly status: string;
    readonly attempts: number;
    readonly createdAt: number;
    readonly deliveredAt: number | null;
    readonly failedAt: number | null;
    readonly lastResult: string | null;
    /** The signed event's fields (`type`, `sub`, …). */
    readonly event: Readonly<Record<string, unknown>>;
    readonly jti: string;
}

export function parseNotification(body: unknown): Notification {
    const n = Fields.of(body, "notifications");
    let event: unknown = n.raw("event") ?? {};
    if (typeof event === "string") {
        try {
            event = JSON.parse(event) as unknown;
        } catch {
            event = { raw: event };
        }
    }
    return {
        id: n.id("id"),
        type: n.string("type"),
        appleId: n.string("apple_id"),
        audience: n.string("audience"),
        url: n.string("url"),
        status: n.string("status"),
        attempts: n.integer("attempts"),
        createdAt: n.integer("created_at"),
        deliveredAt: n.optionalInteger("delivered_at"),
        failedAt: n.optionalInteger("failed_at"),
        lastResult: n.optionalString("last_result"),
        event: typeof event === "object" && event !== null && !Array.isArray(event) ? (event as Record<string, unknown>) : {},
        jti: n.string("jti"),
    };
}

/** The once-only `user` JSON of a first web sign-in. */
export interface FirstSignInUser {
    readonly name?: { readonly firstName?: string; readonly lastName?: string };
    readonly email?: string;
}

/**
 * How the emulator answered a completed web sign-in. `form_post`: `fields` is what the browser would POST
 * to `redirectUri` (`code`, `state`, `id_token` when the response type asks for one, and the `user` JSON on a
 * first sign-in). `query`/`fragment`: `location` is the redirect and `fields` its parameters.
 */
export interface WebSignIn {
    readonly responseMode: string;
    readonly redirectUri: string;
    readonly fields: Readonly<Record<string, string>>;
    readonly location: string | null;
    readonly code: string | null;
    readonly idToken: string | null;
    readonly state: string | null;
    /** The once-only `user` JSON (name and email), parsed; `null` for a returning user. */
    readonly user: FirstSignInUser | null;
}

export function webSignIn(responseMode: string, redirectUri: string, fields: Record<string, string>, location: string | null): WebSignIn {
    const user = fields["user"];
    return {
        responseMode,
        redirectUri,
        fields,
        location,
        code: fields["code"] ?? null,
        idToken: fields["id_token"] ?? null,
        state: fields["state"] ?? null,
        user: user ? (JSON.parse(user) as FirstSignInUser) : null,
    };
}

/** What `ASAuthorizationAppleIDCredential` carries after a device sign-in. */
export interface NativeCredential {
    readonly user: string;
    readonly identityToken: string;
    readonly authorizationCode: string;
    readonly email: string | null;
    readonly fullName: { readonly givenName?: string; readonly familyName?: string } | null;
    readonly realUserStatus: number;
    readonly authorizedScopes: readonly string[];
    readonly state: string | null;
}

export function parseNativeCredential(body: unknown): NativeCredential {
    const c = Fields.of(body, "device/authorize");
    return {
        user: c.string("user"),
        identityToken: c.string("identityToken"),
        authorizationCode: c.string("authorizationCode"),
        email: c.optionalString("email"),
        fullName: c.object("fullName") as NativeCredential["fullName"],
        realUserStatus: c.optionalInteger("realUserStatus") ?? 0,
        authorizedScopes: c.strings("authorizedScopes"),
        state: c.optionalString("state"),
    };
}

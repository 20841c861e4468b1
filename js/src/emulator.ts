/** `Emulator`: a local appleid.apple.com (`juice emulator`) owned by a test, on ports of its own. */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findJuiceBin } from "./binary.js";
import { Clock } from "./clock.js";
import { EmulatorError, EmulatorStartError } from "./errors.js";
import { failureBody, parseCapturedRequest, parseFailure, type CapturedRequest, type Failure, type FailureArguments, type FailureHandle, type FailureKind, type RelayDomain } from "./failures.js";
import { Fields } from "./fields.js";
import { errorOf, jsonOf, request } from "./http.js";
import { parseIssued, parseMail, parseNotification, type AppleID, type AppleIDConfig, type Issued, type MailMessage, type NativeCredential, type Notification, type WebSignIn } from "./models.js";
import { Child } from "./process.js";
import { parseReadyLine, type ReadyLine } from "./ready.js";
import { nativeSignInAt, signInAt, type NativeSignInOptions, type WebSignInOptions } from "./signin.js";
import { sendRelayMail, type RelayMail } from "./smtp.js";

const inspect = Symbol.for("nodejs.util.inspect.custom");

/** The emulator's configuration (docs/emulator.md, "Configuration"): teams, apps, Apple IDs. */
export interface EmulatorConfig {
    admin_token?: string;
    teams?: ReadonlyArray<Record<string, unknown>>;
    apps?: ReadonlyArray<Record<string, unknown>>;
    apple_ids?: ReadonlyArray<AppleIDConfig | Record<string, unknown>>;
    [key: string]: unknown;
}

export interface EmulatorOptions {
    /** 0 (the default): the emulator picks a free port and reports it, so parallel workers never collide. */
    port?: number;
    /** Runs the private email relay (SMTP) on this port; 0 picks a free one. Left out: no relay. */
    smtpPort?: number;
    /** Default 127.0.0.1. */
    host?: string;
    /** The `iss` of its tokens (default: its URL); `https://appleid.apple.com` for libraries that hard-code Apple's. */
    issuer?: string;
    /** The domain new Hide My Email addresses are issued on. */
    relayDomain?: RelayDomain;
    /** A `juice` of your own (default: `findJuiceBin()`). */
    juiceBin?: string;
    /** How long the process may take to print its ready line (default 60 000 ms). */
    startupTimeoutMs?: number;
    /** How long one admin or sign-in request may take (default 30 000 ms). */
    requestTimeoutMs?: number;
    /** More `juice emulator` arguments. */
    extraArgs?: readonly string[];
}

/** How to reach an emulator another process started (Jest's and Vitest's global setup hand this to workers). */
export interface EmulatorAddress extends ReadyLine {
    readonly adminToken: string;
}

export interface SeedOptions {
    teams?: ReadonlyArray<Record<string, unknown>>;
    apps?: ReadonlyArray<Record<string, unknown>>;
    appleIds?: ReadonlyArray<AppleID | AppleIDConfig | Record<string, unknown>>;
}

export interface RequestsFilter {
    /** Only requests to this path (`/auth/token`, `/auth/keys`, …). */
    path?: string;
    /** Only requests of this client (a bundle id or Services ID). */
    clientId?: string;
}

const RELAY_DOMAINS: readonly string[] = ["private.icloud.com", "privaterelay.appleid.com", "icloud.com"];

function checkPort(value: number | undefined, name: string): void {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value <= 65535)) {
        throw new RangeError(`${name} must be an integer between 0 and 65535 (0 picks a free port), not ${String(value)}`);
    }
}

/**
 * A `juice emulator` process for a test run: Apple's endpoints on loopback, its state resettable.
 * An `admin_token` is generated when the configuration has none; it is never printed.
 *
 * ```ts
 * const apple = await Emulator.start({ apple_ids: [alice.config()] });
 * try { … apple.url … await apple.reset(); } finally { await apple.close(); }
 * ```
 */
export class Emulator {
    /** The emulator's time (`get`, `now`, `set`, `advance`). */
    readonly clock: Clock;
    private readonly configuration: EmulatorConfig;
    private readonly options: EmulatorOptions;
    private child: Child | null = null;
    private ready: ReadyLine | null = null;
    private token: string;

    constructor(config: EmulatorConfig = {}, options: EmulatorOptions = {}) {
        if (typeof config !== "object" || config === null || Array.isArray(config)) {
            throw new TypeError("config must be an object in the emulator configuration's shape");
        }
        const copy = JSON.parse(JSON.stringify(config)) as EmulatorConfig;
        copy.teams ??= [];
        copy.apps ??= [];
        copy.apple_ids ??= [];
        if (copy.admin_token !== undefined && typeof copy.admin_token !== "string") throw new TypeError("config.admin_token must be a string");
        copy.admin_token ||= randomBytes(32).toString("base64url");
        this.token = copy.admin_token;
        this.configuration = copy;
        checkPort(options.port, "port");
        checkPort(options.smtpPort, "smtpPort");
        if (options.relayDomain !== undefined && !RELAY_DOMAINS.includes(options.relayDomain)) {
            throw new RangeError(`relayDomain must be one of ${RELAY_DOMAINS.join(", ")}`);
        }
        const startup = options.startupTimeoutMs ?? 60_000;
        if (!(startup > 0 && startup <= 600_000)) throw new RangeError("startupTimeoutMs must be between 0 and 600000");
        this.options = { ...options };
        this.clock = new Clock((method, path, body) => this.admin(method, path, body));
    }

    /** Creates and starts an emulator: resolves once it accepts connections. */
    static async start(config: EmulatorConfig = {}, options: EmulatorOptions = {}): Promise<Emulator> {
        return new Emulator(config, options).start();
    }

    /** An emulator another process started and will stop (`close()` then only forgets it). */
    static attach(address: EmulatorAddress, options: Pick<EmulatorOptions, "requestTimeoutMs"> = {}): Emulator {
        const emulator = new Emulator({ admin_token: address.adminToken }, options);
        emulator.ready = { url: address.url, issuer: address.issuer, port: address.port, smtpPort: address.smtpPort };
        return emulator;
    }

    // --- lifecycle -------------------------------------------------------------------------------

    /**
     * Starts the process and resolves once it printed its ready line (`--ready-json`: the URL, issuer and
     * ports it really bound): no sleeping, no polling. An `EmulatorStartError` carries what it printed.
     */
    async start(): Promise<this> {
        if (this.child !== null || this.ready !== null) throw new Error("this Emulator is already started");
        const binary = this.options.juiceBin ?? findJuiceBin();
        const directory = mkdtempSync(join(tmpdir(), "juice-emulator-"));
        const configPath = join(directory, "emulator.json");
        writeFileSync(configPath, JSON.stringify(this.configuration), { mode: 0o600, flag: "wx" });
        const argv = [binary, "emulator", "--ready-json", "--host", this.options.host ?? "127.0.0.1", "--port", String(this.options.port ?? 0), "--config", configPath, "--data-dir", join(directory, "data")];
        if (this.options.smtpPort !== undefined) argv.push("--smtp-port", String(this.options.smtpPort));
        if (this.options.issuer) argv.push("--issuer", this.options.issuer);
        if (this.options.relayDomain) argv.push("--relay-domain", this.options.relayDomain);
        argv.push(...(this.options.extraArgs ?? []));
        let child: Child;
        try {
            child = await Child.start(argv, join(directory, "emulator.log"));
        } catch (error) {
            rmSync(directory, { recursive: true, force: true });
            throw new EmulatorStartError(`cannot run ${binary}: ${(error as Error).message}`);
        }
        child.own(directory);
        const timeout = this.options.startupTimeoutMs ?? 60_000;
        const ready = await child.waitForLine(parseReadyLine, timeout);
        if (ready === null) {
            const exited = await child.exitsWithin(2_000);
            const output = this.redact(child.outputTail());
            const status = await child.stop(2_000);
            throw new EmulatorStartError(exited ? `juice emulator exited with status ${String(status)} before it was ready` : `juice emulator was not ready within ${timeout} ms`, output);
        }
        // A running emulator never keeps the test process alive: the exit hook stops it with the process.
        child.detachFromEventLoop();
        this.child = child;
        this.ready = ready;
        return this;
    }

    /** Stops the process (SIGTERM to its group, SIGKILL after 10 s) and removes its data. Idempotent. */
    async close(): Promise<void> {
        const child = this.child;
        this.child = null;
        this.ready = null;
        if (child !== null) await child.stop();
    }

    private redact(text: string): string {
        return text.split(this.token).join("<admin token>");
    }

    [inspect](): string {
        return `Emulator(${this.ready?.url ?? "not started"}, smtpPort=${String(this.ready?.smtpPort ?? null)})`;
    }

    toJSON(): Record<string, unknown> {
        return { url: this.ready?.url ?? null, smtpPort: this.ready?.smtpPort ?? null };
    }

    // --- where it is -----------------------------------------------------------------------------

    private started(): ReadyLine {
        if (this.ready === null) throw new Error("the Emulator is not started: await start() first");
        return this.ready;
    }

    /** The base URL (`http://127.0.0.1:PORT`): a backend's Apple base URL. */
    get url(): string {
        return this.started().url;
    }

    /** The `iss` of its tokens (the URL unless `issuer` was given). */
    get issuer(): string {
        return this.started().issuer;
    }

    get port(): number {
        return this.started().port;
    }

    /** The private email relay's port, or `null` when it does not run. */
    get smtpPort(): number | null {
        return this.started().smtpPort;
    }

    /** The admin endpoints' bearer token (never printed by `inspect` or `JSON.stringify`). */
    get adminToken(): string {
        return this.token;
    }

    /** The process id (`null` for an attached emulator or before start). */
    get pid(): number | null {
        return this.child?.pid ?? null;
    }

    /** The file with everything the process printed (the emulator never logs secrets). */
    get logPath(): string | null {
        return this.child?.logPath ?? null;
    }

    /** A copy of the configuration it started with (`admin_token` included). */
    get config(): EmulatorConfig {
        return JSON.parse(JSON.stringify(this.configuration)) as EmulatorConfig;
    }

    /** How a worker process reaches this emulator (`Emulator.attach(address)`). */
    get address(): EmulatorAddress {
        return { ...this.started(), adminToken: this.token };
    }

    // --- the admin API ---------------------------------------------------------------------------

    /**
     * Calls `/emulator/admin/<path>` (`path` relative to it: `"reset"`, `"mail/refused"`) and resolves with
     * its JSON; a refusal rejects with an `EmulatorError` carrying the emulator's code and reason.
     */
    async admin(method: string, path: string, body?: unknown, query?: Readonly<Record<string, string | undefined>>): Promise<unknown> {
        const url = new URL(`${this.url}/emulator/admin/${path.replace(/^\/+/, "")}`);
        for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
        const answer = await request(method, url.toString(), {
            headers: { Authorization: `Bearer ${this.token}` },
            ...(method === "GET" ? {} : { json: body ?? {} }),
            timeoutMs: this.options.requestTimeoutMs ?? 30_000,
        });
        if (answer.status < 200 || answer.status > 299) throw errorOf(answer, path);
        const json = jsonOf(answer);
        if (json === undefined) throw new EmulatorError("unexpected_answer", `${path} answered no JSON`, answer.status, path);
        return json;
    }

    /** Back to the configured state: sign-ins, codes, tokens, notifications, mail, failures, captured requests and seeds forgotten; the clock real. */
    async reset(): Promise<void> {
        await this.admin("POST", "reset");
    }

    /** Adds (or replaces, by team id, bundle id or email) teams, apps and Apple IDs until the next reset; a refusal names every problem. */
    async seed(seed: SeedOptions): Promise<void> {
        const appleIds = (seed.appleIds ?? []).map((entry) => (typeof (entry as AppleID).config === "function" ? (entry as AppleID).config() : entry));
        await this.admin("POST", "seed", { teams: seed.teams ?? [], apps: seed.apps ?? [], apple_ids: appleIds });
    }

    /** What was issued for the app (codes and tokens, as SHA-256 digests), oldest first. */
    async issued(bundleId: string): Promise<Issued> {
        return parseIssued(await this.admin("GET", "issued", undefined, { bundle_id: bundleId }));
    }

    /** The mail the private email relay delivered to `appleId`, newest first. */
    async inbox(appleId: string): Promise<MailMessage[]> {
        const body = Fields.of(await this.admin("GET", "mail", undefined, { apple_id: appleId }), "mail");
        return body.list("messages").map(parseMail);
    }

    /** One whole relayed message (an id from `inbox()`), with its headers and body. */
    async mail(id: string): Promise<MailMessage> {
        if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new TypeError(`not a mail id: ${JSON.stringify(id)}`);
        return parseMail(await this.admin("GET", `mail/${id}`));
    }

    /** Sends one message through the private email relay (the emulator must run with `smtpPort`). */
    async relayMail(mail: RelayMail): Promise<string> {
        const port = this.smtpPort;
        if (port === null) throw new Error("the private email relay does not run: start the Emulator with smtpPort: 0");
        return sendRelayMail(new URL(this.url).hostname, port, mail, this.options.requestTimeoutMs ?? 30_000);
    }

    /** The server-to-server notifications in the outbox (all, or about `appleId`) and how delivery went. */
    async notifications(appleId?: string): Promise<Notification[]> {
        const body = Fields.of(await this.admin("GET", "notifications", undefined, { apple_id: appleId }), "notifications");
        return body.list("notifications").map(parseNotification);
    }

    /**
     * The first notification of `type` (about `appleId`) once the backend accepted it (2xx). Delivery is
     * asynchronous, so this asks the outbox every 100 ms until `timeoutMs`; a notification the emulator gave
     * up on rejects with its last result.
     */
    async waitForDelivery(type: string, appleId?: string, options: { timeoutMs?: number } = {}): Promise<Notification> {
        const timeoutMs = options.timeoutMs ?? 30_000;
        if (!(timeoutMs > 0 && timeoutMs <= 3_600_000)) throw new RangeError("timeoutMs must be between 0 and 3600000");
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const seen = (await this.notifications(appleId)).filter((notification) => notification.type === type);
            for (const notification of seen) {
                if (notification.status === "delivered") return notification;
                if (notification.status === "failed") throw new EmulatorError("delivery_failed", `${type}: ${notification.lastResult ?? ""}`, 0, "notifications");
            }
            if (Date.now() >= deadline) {
                const last = seen[0]?.lastResult ?? "no such notification in the outbox";
                throw new EmulatorError("not_delivered", `${type} not delivered within ${timeoutMs} ms (last result: ${last})`, 0, "notifications");
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
    }

    /** The person stops using Sign in with Apple with the app: a `consent-revoked` notification goes out. */
    async revokeConsent(appleId: string, clientId: string): Promise<void> {
        await this.admin("POST", "revoke-consent", { apple_id: appleId, client_id: clientId });
    }

    /** Hide My Email forwarding on or off for a team (an `email-disabled`/`email-enabled` notification). */
    async setEmailForwarding(appleId: string, teamId: string, enabled: boolean): Promise<void> {
        await this.admin("POST", "set-email-forwarding", { apple_id: appleId, team_id: teamId, enabled });
    }

    /** The person deletes their Apple ID (`account-delete` notifications). */
    async deleteAppleId(appleId: string): Promise<void> {
        await this.admin("POST", "delete-apple-id", { apple_id: appleId });
    }

    /** Publishes a new signing key and signs with it from now on; resolves with its `kid`. */
    async rotateKeys(): Promise<string> {
        return Fields.of(await this.admin("POST", "rotate-keys"), "rotate-keys").string("signing_key_id");
    }

    // --- failure injection and captured requests -------------------------------------------------

    /**
     * Makes Apple fail or drift (docs/emulator.md's kinds): `await apple.fail("token_server_error", { clientId, count: 1 })`.
     * Resolves with a handle whose `clear()` removes it; `reset()` clears every failure too.
     */
    async fail<K extends FailureKind>(kind: K, ...options: FailureArguments<K>): Promise<FailureHandle> {
        const failure = parseFailure(await this.admin("POST", "failures", failureBody(kind, options[0] ?? {})));
        return {
            ...failure,
            clear: async () => {
                try {
                    await this.admin("DELETE", "failures", {}, { id: failure.id });
                } catch (error) {
                    // Used up, or cleared by a reset: nothing left to clear.
                    if (!(error instanceof EmulatorError && error.code === "not_found")) throw error;
                }
            },
        };
    }

    /** The failures in force, oldest first. */
    async failures(): Promise<Failure[]> {
        return Fields.of(await this.admin("GET", "failures"), "failures").list("failures").map(parseFailure);
    }

    /** Clears every failure; resolves with how many there were. */
    async clearFailures(): Promise<number> {
        return Fields.of(await this.admin("DELETE", "failures"), "failures").integer("cleared");
    }

    /** The requests to Apple's endpoints the emulator captured (the last 1000), oldest first. */
    async requests(filter: RequestsFilter = {}): Promise<CapturedRequest[]> {
        const body = Fields.of(await this.admin("GET", "requests", undefined, { client_id: filter.clientId }), "requests");
        const captured = body.list("requests").map(parseCapturedRequest);
        return filter.path === undefined ? captured : captured.filter((entry) => entry.path === filter.path);
    }

    // --- a person signing in ---------------------------------------------------------------------

    /**
     * Completes the sign-in a backend started (its redirect to `/auth/authorize`) as `appleID`. Resolves with
     * the form_post fields to POST to `redirectUri`, or the redirect (`query`/`fragment`).
     */
    signIn(authorizationURL: string, appleID: AppleID, options: WebSignInOptions = {}): Promise<WebSignIn> {
        return signInAt(this.url, authorizationURL, appleID, options, this.options.requestTimeoutMs ?? 30_000);
    }

    /** A device sign-in for `bundleID`: an identity token (carrying `nonce` as given) and an authorization code. */
    nativeSignIn(bundleID: string, appleID: AppleID, options: NativeSignInOptions = {}): Promise<NativeCredential> {
        return nativeSignInAt(this.url, bundleID, appleID, options, this.options.requestTimeoutMs ?? 30_000);
    }
}

/** The conformance kit (`juice conformance`): it plays Apple against a backend and judges each case. */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findJuiceBin } from "./binary.js";
import { ConformanceRunError } from "./errors.js";
import { kitAddress } from "./kit-address.js";
import { Child } from "./process.js";
import { parseReadyLine } from "./ready.js";
import { ConformanceReport } from "./report.js";

export { ConformanceReport, type ConformanceCase } from "./report.js";

/** `juice conformance`'s options (camelCase for its `--kebab-case` flags; see `juice conformance --help`). */
export interface ConformanceOptions {
    /** The backend's base URL. */
    backend: string;
    teamId: string;
    keyId: string;
    /** The path of the backend's .p8 (or its public-key PEM). */
    teamKey: string;
    /** The Services ID of the backend's web sign-in. */
    clientId: string;
    /** The registered redirect URI (form_post callback). */
    redirectUri: string;
    bundleId?: string;
    issuer?: string;
    /** The path that starts a web sign-in. */
    start?: string;
    startMethod?: "GET" | "POST";
    /** A path answering 2xx only when signed in. */
    probe?: string;
    /** The native sign-in endpoint. */
    native?: string;
    nativeNonce?: string;
    /** `juice` (default) or `rest-auth`. */
    nativeBody?: "juice" | "rest-auth";
    /** Judges a backend with only a native endpoint. */
    apiOnly?: boolean;
    notifications?: string;
    delete?: string;
    /** Seconds one request to the backend may take (1 – 120). */
    timeout?: number;
    /** Seconds the backend may take to refuse a sign-in while Apple stalls (1 – 120). */
    appleStallBound?: number;
    /** How long the whole run may take (default 900 000 ms). */
    runTimeoutMs?: number;
    /** More `juice conformance` arguments (for options newer than this package). */
    extraArgs?: readonly string[];
}

const FLAGS: ReadonlyArray<[keyof ConformanceOptions, string]> = [
    ["backend", "backend"], ["teamId", "team-id"], ["keyId", "key-id"], ["teamKey", "team-key"], ["clientId", "client-id"],
    ["redirectUri", "redirect-uri"], ["bundleId", "bundle-id"], ["issuer", "issuer"], ["start", "start"], ["startMethod", "start-method"],
    ["probe", "probe"], ["native", "native"], ["nativeNonce", "native-nonce"], ["nativeBody", "native-body"],
    ["notifications", "notifications"], ["delete", "delete"], ["timeout", "timeout"], ["appleStallBound", "apple-stall-bound"],
];

/** `Kit.start`'s options beyond the kit's own flags. */
export interface KitStartOptions extends ConformanceOptions {
    /**
     * Seconds (0 – 600) the kit waits, once it listens, for the backend's start path to redirect to it
     * before the first case: the time to configure the backend with `kit.url` (default 60; `run()`: 0).
     */
    waitForBackend?: number;
    /** How long the kit may take to listen and print its ready line (default 60 000 ms). */
    startupTimeoutMs?: number;
}

/** Where a kit serves and keeps its reports. */
export interface KitOptions {
    /** The loopback port (1 – 65535) to serve Apple on; without it the kernel picks one as the kit binds it. */
    port?: number;
    /** Where the JSON, JUnit and HTML reports go (default: a new temporary directory for each run). */
    reportDir?: string;
    /** The `juice` binary (default: `findJuiceBin()`). */
    juiceBin?: string;
}

function checkedPort(port: number | undefined): number | undefined {
    if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
        throw new RangeError(`port must be an integer between 1 and 65535 (or left out: the kernel picks one), not ${String(port)}`);
    }
    return port;
}

function checkedMs(name: string, value: number): number {
    if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number of milliseconds, not ${String(value)}`);
    return value;
}

function readText(path: string): string {
    try {
        return readFileSync(path, "utf8");
    } catch {
        return "";
    }
}

/** The kit while it runs: its process, the reports it writes, where it listens. */
interface Running {
    readonly child: Child;
    readonly directory: string;
    readonly paths: { json: string; junit: string; html: string };
    readonly runTimeoutMs: number;
}

/**
 * `juice conformance` for one run. With no `port` the kit binds one the kernel picks and reports it
 * (`--ready-json`), so parallel runs never collide. The backend needs the kit's URL, so a run has two steps:
 * `Kit.start(…)` resolves once the kit listens (`url`, `port`), the backend is configured with `url` as Apple's
 * base URL (and issuer), and `wait()` resolves with the report. The kit waits up to `waitForBackend` seconds for
 * the backend's start path to redirect to it before the first case.
 *
 * ```ts
 * const kit = await Kit.start({ backend: backend.url, teamId, keyId, teamKey: key.path, clientId, redirectUri });
 * backend.configure({ appleBaseURL: kit.url, issuer: kit.url });
 * const report = await kit.wait();
 * ```
 *
 * `Kit.open({ port })` then `run(…)` is both steps at once, for a backend already configured with that port.
 * `close()` stops a kit that still runs; one the test forgets is killed when Node exits.
 */
export class Kit {
    private running: Running | null = null;
    /** Set from the first line of `start` to its end, so that a second `start` cannot begin meanwhile. */
    private starting = false;
    private address: { url: string; port: number } | null = null;

    private constructor(
        private readonly askedPort: number | undefined,
        readonly reportDir: string | undefined,
        private readonly juiceBin: string | undefined,
    ) {}

    /** A kit not started yet, on `port` (default: one the kernel picks when it starts). A `RangeError` for a port out of range. */
    static async open(options: KitOptions = {}): Promise<Kit> {
        return new Kit(checkedPort(options.port), options.reportDir, options.juiceBin);
    }

    /** `open(options)` then `start(options)`: a kit that listens, its `url` and `port` read from its ready line. */
    static async start(options: KitStartOptions & KitOptions): Promise<Kit> {
        const { port, reportDir, juiceBin, ...run } = options;
        const kit = await Kit.open({ ...(port === undefined ? {} : { port }), ...(reportDir === undefined ? {} : { reportDir }), ...(juiceBin === undefined ? {} : { juiceBin }) });
        return kit.start(run);
    }

    /** The kit's port: the one it reported once started, else the one given to `open`. */
    get port(): number {
        const port = this.address?.port ?? this.askedPort;
        if (port === undefined) throw new Error("the kit picks its port when it starts: await Kit.start(…) first, then read url or port");
        return port;
    }

    /** Apple's base URL (and default issuer) for the backend under test. */
    get url(): string {
        return this.address?.url ?? `http://127.0.0.1:${this.port}`;
    }

    /** The kit's process id while it runs, else `null`. */
    get pid(): number | null {
        return this.running?.child.running ? this.running.child.pid : null;
    }

    /**
     * Starts the kit and resolves once it listens (its ready line read and checked: an `http` loopback URL on the
     * port it reported). A `ConformanceRunError` with the kit's reason when it exits first (bad options, an
     * unreadable team key, a port taken) or prints no ready line within `startupTimeoutMs`; a `RangeError` for
     * a `waitForBackend` outside 0 – 600 or a timeout that is not a positive number.
     */
    async start(options: KitStartOptions): Promise<this> {
        if (this.running !== null || this.starting) throw new Error("this Kit is already running: await wait() or close() first");
        this.starting = true;
        try {
            return await this.launch(options);
        } finally {
            this.starting = false;
        }
    }

    private async launch(options: KitStartOptions): Promise<this> {
        const { waitForBackend = 60, startupTimeoutMs = 60_000, runTimeoutMs = 900_000 } = options;
        const flags: ConformanceOptions = options;
        if (!(Number.isInteger(waitForBackend) && waitForBackend >= 0 && waitForBackend <= 600)) {
            throw new RangeError(`waitForBackend must be a whole number of seconds between 0 and 600, not ${String(waitForBackend)}`);
        }
        checkedMs("startupTimeoutMs", startupTimeoutMs);
        checkedMs("runTimeoutMs", runTimeoutMs);
        const directory = this.reportDir ?? mkdtempSync(join(tmpdir(), "juice-conformance-"));
        mkdirSync(directory, { recursive: true });
        const paths = { json: join(directory, "conformance.json"), junit: join(directory, "conformance.xml"), html: join(directory, "conformance.html") };
        for (const stale of [...Object.values(paths), join(directory, "conformance.out"), join(directory, "conformance.err")]) rmSync(stale, { force: true });
        const binary = this.juiceBin ?? findJuiceBin();
        const argv = [binary, "conformance", "--ready-json", "--port", String(this.askedPort ?? 0), "--wait-for-backend", String(waitForBackend)];
        if (flags.apiOnly) argv.push("--api-only");
        for (const [key, flag] of FLAGS) {
            const value = flags[key];
            if (value !== undefined && value !== null) argv.push(`--${flag}`, String(value));
        }
        argv.push("--report", paths.json, "--junit", paths.junit, "--html", paths.html, ...(flags.extraArgs ?? []));
        let child: Child;
        try {
            child = await Child.start(argv, join(directory, "conformance.out"), join(directory, "conformance.err"));
        } catch (error) {
            throw new ConformanceRunError(`cannot run ${binary}: ${(error as Error).message}`);
        }
        // A kit the test forgets to close does not keep Node alive; the exit hook kills it then.
        child.detachFromEventLoop();
        this.address = null;
        const ready = await child.waitForLine(parseReadyLine, startupTimeoutMs);
        if (ready === null) {
            const exited = await child.exitsWithin(5_000);
            const status = await child.stop(2_000);
            const reason = exited ? this.reason(directory, status) : `juice conformance printed no ready line within ${startupTimeoutMs} ms`;
            throw new ConformanceRunError(reason, status);
        }
        try {
            this.address = kitAddress(ready, this.askedPort);
        } catch (error) {
            await child.stop(2_000);
            throw error;
        }
        this.running = { child, directory, paths, runTimeoutMs };
        return this;
    }

    /**
     * Resolves with the report once the run ends, whatever the verdicts (`timeoutMs`: `runTimeoutMs`, default
     * 900 000 ms). A `ConformanceRunError` when the kit could not run (exit status 2: the backend unreachable or
     * never redirecting to the kit, within `waitForBackend`) or did not finish in time (it is stopped then).
     */
    async wait(timeoutMs?: number): Promise<ConformanceReport> {
        const running = this.running;
        if (running === null) throw new Error("the kit is not running: await Kit.start(…) first");
        const limit = checkedMs("timeoutMs", timeoutMs ?? running.runTimeoutMs);
        const { child, directory, paths } = running;
        const inTime = await child.exitsWithin(limit);
        const status = await child.stop(2_000);
        this.running = null;
        // Every line it printed is in the log once its output ended.
        await child.waitForLine(() => null, 5_000);
        if (!inTime) throw new ConformanceRunError(`juice conformance did not finish within ${limit} ms`, status);
        if (status === 2 || !existsSync(paths.json)) throw new ConformanceRunError(this.reason(directory, status), status);
        let body: unknown;
        try {
            body = JSON.parse(readFileSync(paths.json, "utf8")) as unknown;
        } catch (error) {
            throw new ConformanceRunError(`the kit's JSON report cannot be read: ${(error as Error).message}`, status);
        }
        const table = readText(child.logPath).split("\n").filter((line) => parseReadyLine(line) === null).join("\n");
        return ConformanceReport.parse(body, table, status, paths);
    }

    /**
     * `start(options)` then `wait()`: for a backend already configured with the kit's URL (a fixed `port` given to
     * `open`), so the kit does not wait for it unless `waitForBackend` says so.
     */
    async run(options: KitStartOptions): Promise<ConformanceReport> {
        await this.start({ waitForBackend: 0, ...options });
        return this.wait();
    }

    /** Stops the kit (SIGTERM to its process group, SIGKILL after 2 s) if it still runs. Idempotent. */
    async close(): Promise<void> {
        const running = this.running;
        this.running = null;
        if (running !== null) await running.child.stop(2_000);
    }

    /** What the kit said on stderr when it could not run, without its prefix. */
    private reason(directory: string, status: number | null): string {
        const stderr = readText(join(directory, "conformance.err")).trim().replace(/^juice conformance could not start: /, "").trim();
        return stderr.slice(0, 2000) || `juice conformance exited with status ${String(status)}`;
    }
}

/** Runs `juice conformance` with the kit on `port` (the one the backend was configured with) and resolves with the parsed report. */
export async function conformance(options: KitStartOptions & KitOptions & { port: number }): Promise<ConformanceReport> {
    const { port, reportDir, juiceBin, ...rest } = options;
    const kit = await Kit.open({ port, ...(reportDir === undefined ? {} : { reportDir }), ...(juiceBin === undefined ? {} : { juiceBin }) });
    try {
        return await kit.run(rest);
    } finally {
        await kit.close();
    }
}

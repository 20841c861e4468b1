/** The conformance kit (`juice conformance`): it plays Apple against a backend and judges each case. */

import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findJuiceBin } from "./binary.js";
import { ConformanceFailedError, ConformanceRunError } from "./errors.js";
import { isObject } from "./http.js";
import { freePort } from "./keys.js";
import { runToEnd } from "./run.js";

const inspect = Symbol.for("nodejs.util.inspect.custom");

/**
 * One case's verdict: what was sent, what the backend did, and how to fix it. The report is read
 * generically: every field the kit wrote is in `fields`, the usual ones also by name.
 */
export interface ConformanceCase {
    readonly id: string;
    /** `PASSED`, `FAILED`, `WARNING`, `INCONCLUSIVE`, `SKIPPED` (or whatever a newer kit says). */
    readonly verdict: string;
    readonly title: string;
    readonly expect: string;
    readonly level: string;
    readonly observed: string;
    readonly detail: string;
    readonly fix: string;
    readonly reference: string;
    readonly fields: Readonly<Record<string, unknown>>;
}

/** The kit's report (its JSON, parsed), its table as printed, and where the JSON, JUnit and HTML reports are. */
export class ConformanceReport {
    constructor(
        readonly backend: string,
        readonly channel: string,
        readonly cases: readonly ConformanceCase[],
        /** The report's other top-level fields, as the kit wrote them. */
        readonly fields: Readonly<Record<string, unknown>>,
        readonly exitStatus: number | null,
        readonly table: string,
        readonly jsonPath: string,
        readonly junitPath: string,
        readonly htmlPath: string,
    ) {}

    private count(verdict: string): number {
        return this.cases.filter((entry) => entry.verdict === verdict).length;
    }

    get passed(): number {
        return this.count("PASSED");
    }
    get failed(): number {
        return this.count("FAILED");
    }
    get warnings(): number {
        return this.count("WARNING");
    }
    get inconclusive(): number {
        return this.count("INCONCLUSIVE");
    }
    get skipped(): number {
        return this.count("SKIPPED");
    }

    /** No case FAILED (warnings, inconclusive and skipped cases do not fail a run). */
    get ok(): boolean {
        return this.failed === 0;
    }

    get failures(): ConformanceCase[] {
        return this.cases.filter((entry) => entry.verdict === "FAILED");
    }

    /** The case `id`; a `RangeError` naming the ids there are when the report has none such. */
    case(id: string): ConformanceCase {
        const found = this.cases.find((entry) => entry.id === id);
        if (!found) throw new RangeError(`no case ${JSON.stringify(id)} in the report (it has ${this.cases.map((entry) => entry.id).join(", ")})`);
        return found;
    }

    /** `{case id: verdict}`. */
    verdicts(): Record<string, string> {
        return Object.fromEntries(this.cases.map((entry) => [entry.id, entry.verdict]));
    }

    /** Throws a `ConformanceFailedError` (the FAILED case ids, the table, the report files) unless `ok`. */
    assertOk(): void {
        if (!this.ok) throw new ConformanceFailedError(this.failures.map((entry) => entry.id), this.table, [this.jsonPath, this.junitPath, this.htmlPath]);
    }

    [inspect](): string {
        return `ConformanceReport(${this.backend}: ${this.passed} passed, ${this.failed} failed, ${this.warnings} warnings)`;
    }

    /** Parses the kit's JSON report; a shape it cannot read is a `ConformanceRunError`. */
    static parse(body: unknown, table: string, exitStatus: number | null, paths: { json: string; junit: string; html: string }): ConformanceReport {
        if (!isObject(body) || !Array.isArray(body["cases"])) throw new ConformanceRunError("the kit's JSON report has no list of cases");
        const text = (fields: Record<string, unknown>, key: string): string => {
            const value = fields[key];
            return typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
        };
        const cases = body["cases"].map((raw: unknown): ConformanceCase => {
            if (!isObject(raw) || typeof raw["id"] !== "string" || typeof raw["verdict"] !== "string") {
                throw new ConformanceRunError(`the report has a case without a string id and verdict: ${JSON.stringify(raw).slice(0, 200)}`);
            }
            return {
                id: raw["id"],
                verdict: raw["verdict"],
                title: text(raw, "title"),
                expect: text(raw, "expect"),
                level: text(raw, "level"),
                observed: text(raw, "observed"),
                detail: text(raw, "detail"),
                fix: text(raw, "fix"),
                reference: text(raw, "reference"),
                fields: raw,
            };
        });
        return new ConformanceReport(text(body, "backend"), text(body, "channel"), cases, body, exitStatus, table, paths.json, paths.junit, paths.html);
    }
}

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

/**
 * The kit on a port chosen before the run, so the backend can be configured with `url` first:
 *
 * ```ts
 * const kit = await Kit.open();
 * const backend = startBackend({ appleBaseURL: kit.url, issuer: kit.url });
 * const report = await kit.run({ backend: backend.url, teamId, keyId, teamKey: key.path, clientId, redirectUri });
 * ```
 */
export class Kit {
    private constructor(
        readonly port: number,
        readonly reportDir: string | undefined,
        private readonly juiceBin: string | undefined,
    ) {}

    /** A kit on `port` (default: a free one). */
    static async open(options: { port?: number; reportDir?: string; juiceBin?: string } = {}): Promise<Kit> {
        const port = options.port ?? (await freePort());
        if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) throw new RangeError(`port must be an integer between 1 and 65535, not ${String(port)}`);
        return new Kit(port, options.reportDir, options.juiceBin);
    }

    /** Apple's base URL (and default issuer) for the backend under test. */
    get url(): string {
        return `http://127.0.0.1:${this.port}`;
    }

    /** Runs every case; resolves with the report whatever the verdicts. A `ConformanceRunError` when it cannot run. */
    async run(options: ConformanceOptions): Promise<ConformanceReport> {
        const directory = this.reportDir ?? mkdtempSync(join(tmpdir(), "juice-conformance-"));
        mkdirSync(directory, { recursive: true });
        const paths = { json: join(directory, "conformance.json"), junit: join(directory, "conformance.xml"), html: join(directory, "conformance.html") };
        const argv = [this.juiceBin ?? findJuiceBin(), "conformance", "--port", String(this.port)];
        if (options.apiOnly) argv.push("--api-only");
        for (const [key, flag] of FLAGS) {
            const value = options[key];
            if (value !== undefined && value !== null) argv.push(`--${flag}`, String(value));
        }
        argv.push("--report", paths.json, "--junit", paths.junit, "--html", paths.html, ...(options.extraArgs ?? []));
        const runTimeoutMs = options.runTimeoutMs ?? 900_000;
        const result = await runToEnd(argv, runTimeoutMs);
        if (result.timedOut) throw new ConformanceRunError(`juice conformance did not finish within ${runTimeoutMs} ms`, result.status);
        if (result.status === 2 || !existsSync(paths.json)) {
            const reason = result.stderr.trim().replace(/^juice conformance could not start: /, "") || `juice conformance exited with ${String(result.status)}`;
            throw new ConformanceRunError(reason, result.status);
        }
        let body: unknown;
        try {
            body = JSON.parse(readFileSync(paths.json, "utf8")) as unknown;
        } catch (error) {
            throw new ConformanceRunError(`the kit's JSON report cannot be read: ${(error as Error).message}`, result.status);
        }
        return ConformanceReport.parse(body, result.stdout, result.status, paths);
    }
}

/** Runs `juice conformance` with the kit on `port` (the one the backend was configured with) and resolves with the parsed report. */
export async function conformance(options: ConformanceOptions & { port: number; reportDir?: string; juiceBin?: string }): Promise<ConformanceReport> {
    const { port, reportDir, juiceBin, ...rest } = options;
    const kit = await Kit.open({ port, ...(reportDir === undefined ? {} : { reportDir }), ...(juiceBin === undefined ? {} : { juiceBin }) });
    return kit.run(rest);
}

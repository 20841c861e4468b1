/** The conformance kit's report: its JSON parsed, read generically (new cases, fields and verdicts need no new package). */

import { ConformanceFailedError, ConformanceRunError } from "./errors.js";
import { isObject } from "./http.js";

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

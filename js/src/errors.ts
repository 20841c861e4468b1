/** The errors of juice-testkit: each says what went wrong in words a test failure can show. */

/** The base of every juice-testkit error. */
export class JuiceError extends Error {
    constructor(message: string) {
        super(message);
        this.name = new.target.name;
    }
}

/** The `juice` binary is not in this package for this platform, not at `$JUICE_BIN`, not on `PATH`. */
export class JuiceNotFoundError extends JuiceError {}

/**
 * The emulator process did not become ready: a bad configuration, a port in use, a crash.
 * `output` is the end of what the process printed (never the admin token).
 */
export class EmulatorStartError extends JuiceError {
    readonly reason: string;
    readonly output: string;

    constructor(reason: string, output = "") {
        super(reason + (output ? `\n--- juice emulator output ---\n${output}` : ""));
        this.reason = reason;
        this.output = output;
    }
}

/**
 * The emulator refused a request: its error code (`invalid_request`, `not_found`, `invalid_credentials`, …),
 * its reason and the HTTP status (0 when no HTTP answer carried it, e.g. a delivery that never succeeded).
 */
export class EmulatorError extends JuiceError {
    readonly code: string;
    readonly reason: string;
    readonly status: number;
    readonly path: string;

    constructor(code: string, reason: string, status: number, path = "") {
        super(`${path ? `${path}: ` : ""}${code} (HTTP ${status}): ${reason}`);
        this.code = code;
        this.reason = reason;
        this.status = status;
        this.path = path;
    }
}

/** `juice conformance` could not run (exit status 2): the backend unreachable, the kit's port taken, bad options. */
export class ConformanceRunError extends JuiceError {
    readonly reason: string;
    readonly exitStatus: number | null;

    constructor(reason: string, exitStatus: number | null = null) {
        super(reason);
        this.reason = reason;
        this.exitStatus = exitStatus;
    }
}

/** A conformance run had FAILED cases (thrown by `ConformanceReport.assertOk()`): the ids, the table and the report files. */
export class ConformanceFailedError extends JuiceError {
    readonly failed: readonly string[];

    constructor(failed: readonly string[], table: string, reports: readonly string[]) {
        super(
            `juice conformance: ${failed.length} case(s) FAILED: ${failed.join(", ")}\n\n${table}\n` +
                `Reports: ${reports.filter((path) => path).join(", ")}`,
        );
        this.failed = failed;
    }
}

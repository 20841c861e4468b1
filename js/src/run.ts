/** Running `juice` once to its end in a process group of its own: killed on timeout, and with the Node process. */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Child } from "./process.js";

export interface Finished {
    readonly status: number | null;
    readonly stdout: string;
    readonly stderr: string;
    readonly timedOut: boolean;
}

/** Runs `argv` to its end; its process group is killed after `timeoutMs`. Rejects only when it cannot run at all. */
export async function runToEnd(argv: readonly string[], timeoutMs: number): Promise<Finished> {
    const directory = mkdtempSync(join(tmpdir(), "juice-run-"));
    try {
        const child = await Child.start(argv, join(directory, "stdout.log"), join(directory, "stderr.log"));
        const lines: string[] = [];
        const outputEnded = child.waitForLine((line) => {
            lines.push(line);
            return null;
        }, timeoutMs + 5_000);
        const inTime = await child.exitsWithin(timeoutMs);
        const status = await child.stop(2_000);
        await outputEnded;
        const stdout = lines.length ? `${lines.join("\n")}\n` : "";
        return { status, stdout, stderr: readFileSync(join(directory, "stderr.log"), "utf8"), timedOut: !inTime };
    } finally {
        rmSync(directory, { recursive: true, force: true });
    }
}

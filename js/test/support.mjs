// What the package's tests share: the runner's hooks (Mocha's globals when Mocha runs the file, node:test's
// otherwise, so every file runs under both) and process checks read from /proc.

import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const underMocha = typeof globalThis.it === "function" && typeof globalThis.before === "function";
export const { describe, it, before, after, beforeEach } = underMocha ? globalThis : await import("node:test");
export const runner = underMocha ? "mocha" : "node:test";

/** Whether `pid` runs (a zombie does not count: it has exited and waits to be reaped). */
export function alive(pid) {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
    } catch {
        return false;
    }
}

/** Whether `pid` is gone within `ms` (checked every 50 ms: the process's own end, not a readiness signal). */
export async function goneWithin(pid, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (alive(pid) && Date.now() < deadline) await sleep(50);
    return !alive(pid);
}

/**
 * juice-testkit for Jest (written against Jest's documented `globalSetup`/`globalTeardown` and
 * `beforeEach`; NOT run by this repository's tests: Jest does not install on its CI machine).
 *
 * One emulator per Jest worker: the global setup starts `maxWorkers` emulators in Jest's parent process,
 * each test file attaches to its worker's (`JEST_WORKER_ID`), reset before each test.
 *
 * ```js
 * // jest.config.js: { globalSetup: "./juice-setup.cjs", globalTeardown: "./juice-teardown.cjs" }
 * // juice-setup.cjs
 * module.exports = require("juice-testkit/jest").globalSetup({ apps: [...], apple_ids: [...] });
 * // juice-teardown.cjs
 * module.exports = require("juice-testkit/jest").globalTeardown;
 * // a test file
 * const { useJestEmulator } = require("juice-testkit/jest");
 * const apple = useJestEmulator();   // beforeEach: reset
 * ```
 */

import type { Emulator, EmulatorConfig, EmulatorOptions } from "./emulator.js";
import { attachWorkerEmulator, startWorkerEmulators } from "./workers.js";

const STARTED = Symbol.for("juice-testkit.jest.emulators");
type Holder = { [STARTED]?: Emulator[] };

/** Jest's `globalSetup` function: starts one emulator per worker (`globalConfig.maxWorkers`). */
export function globalSetup(config: EmulatorConfig = {}, options: EmulatorOptions = {}): (globalConfig?: { maxWorkers?: number }) => Promise<void> {
    return async (globalConfig) => {
        const count = Math.max(1, Math.min(64, globalConfig?.maxWorkers ?? 1));
        // Jest: "any global variables that are defined through globalSetup can only be read in globalTeardown".
        (globalThis as Holder)[STARTED] = await startWorkerEmulators(count, config, options);
    };
}

/** Jest's `globalTeardown` function: stops every emulator the global setup started. */
export async function globalTeardown(): Promise<void> {
    const holder = globalThis as Holder;
    const emulators = holder[STARTED] ?? [];
    delete holder[STARTED];
    await Promise.all(emulators.map((emulator) => emulator.close()));
}

/** This worker's emulator (`JEST_WORKER_ID`), reset before each test of the file (Jest's global `beforeEach`). */
export function useJestEmulator(): Emulator {
    const emulator = attachWorkerEmulator(process.env["JEST_WORKER_ID"], "JEST_WORKER_ID");
    const beforeEach = (globalThis as { beforeEach?: (fn: () => Promise<void>) => void }).beforeEach;
    if (!beforeEach) throw new Error("useJestEmulator() runs inside a Jest test file (its beforeEach global)");
    beforeEach(() => emulator.reset());
    return emulator;
}

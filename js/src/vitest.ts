/**
 * juice-testkit for Vitest (written against Vitest's documented `globalSetup` and `beforeEach`; NOT run
 * by this repository's tests: Vitest is not packaged for its CI machine).
 *
 * One emulator per Vitest worker: the global setup starts `workers` emulators (default: the machine's
 * available parallelism, Vitest's default worker count), each test file attaches to its worker's
 * (`VITEST_POOL_ID`, 1 … maxWorkers), reset before each test.
 *
 * ```ts
 * // vitest.config.ts: test: { globalSetup: ["./juice-setup.ts"] }
 * // juice-setup.ts
 * import { globalSetup } from "juice-testkit/vitest";
 * export default globalSetup({ apps: [...], apple_ids: [...] });      // returns the teardown
 * // a test file
 * import { beforeEach } from "vitest";
 * import { useVitestEmulator } from "juice-testkit/vitest";
 * const apple = useVitestEmulator(beforeEach);
 * ```
 */

import { availableParallelism } from "node:os";
import type { Emulator, EmulatorConfig, EmulatorOptions } from "./emulator.js";
import { attachWorkerEmulator, startWorkerEmulators } from "./workers.js";

/** Vitest's `globalSetup` default export: starts the emulators and returns the teardown that stops them. */
export function globalSetup(config: EmulatorConfig = {}, options: EmulatorOptions & { workers?: number } = {}): () => Promise<() => Promise<void>> {
    const { workers, ...emulatorOptions } = options;
    return async () => {
        const emulators = await startWorkerEmulators(Math.max(1, Math.min(64, workers ?? availableParallelism())), config, emulatorOptions);
        return async () => {
            await Promise.all(emulators.map((emulator) => emulator.close()));
        };
    };
}

/** This worker's emulator (`VITEST_POOL_ID`), reset before each test through the `beforeEach` given (Vitest's). */
export function useVitestEmulator(beforeEach: (fn: () => Promise<void>) => void): Emulator {
    const emulator = attachWorkerEmulator(process.env["VITEST_POOL_ID"], "VITEST_POOL_ID");
    beforeEach(() => emulator.reset());
    return emulator;
}

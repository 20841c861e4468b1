/**
 * juice-testkit for Mocha.
 *
 * Root hooks (`mochaHooks`): one emulator per Mocha process, so one per worker with `--parallel`, each on
 * ports of its own, reset before every test. In a file of your own, given to Mocha with `--require`:
 *
 * ```js
 * // test/hooks.mjs
 * import { rootHooks } from "juice-testkit/mocha";
 * export const mochaHooks = rootHooks({ apps: [...], apple_ids: [...] }, { smtpPort: 0 });
 * // a test: import { juiceEmulator } from "juice-testkit/mocha"; … juiceEmulator().url …
 * ```
 *
 * The worker's emulator lives as long as the worker (Mocha runs several files in one worker): it stops
 * when the process exits, or on SIGINT/SIGTERM. `useEmulator()` is the per-suite form (started in the
 * suite's `before`, closed in its `after`), as in `juice-testkit/node-test`.
 */

import { Emulator, type EmulatorConfig, type EmulatorOptions } from "./emulator.js";
import { allowTime, useEmulatorWith, type EmulatorFixture } from "./fixture.js";

export type { EmulatorFixture } from "./fixture.js";

type MochaHook = (this: unknown) => Promise<void>;
type Register = (fn: MochaHook) => void;

/** Mocha's root hooks, as a root hook plugin exports them (`export const mochaHooks = …`). */
export interface MochaRootHooks {
    beforeAll: MochaHook;
    beforeEach: MochaHook;
}

let worker: Promise<Emulator> | null = null;
let started: Emulator | null = null;

/** Root hooks giving every test file of this Mocha process (worker) one shared emulator, reset before each test. */
export function rootHooks(config: EmulatorConfig | (() => EmulatorConfig | Promise<EmulatorConfig>) = {}, options: EmulatorOptions = {}): MochaRootHooks {
    const startupMs = options.startupTimeoutMs ?? 60_000;
    return {
        async beforeAll(this: unknown) {
            allowTime(this, startupMs + 10_000);
            worker ??= (async () => Emulator.start(typeof config === "function" ? await config() : config, options))();
            try {
                started = await worker;
            } catch (error) {
                worker = null;
                throw error;
            }
        },
        async beforeEach(this: unknown) {
            await started?.reset();
        },
    };
}

/** This process's (worker's) emulator, started by the root hooks. */
export function juiceEmulator(): Emulator {
    if (started === null) throw new Error("no emulator: add the root hooks (rootHooks(config)) to Mocha with --require");
    return started;
}

/** An emulator for the suite around (Mocha's global `before`, `after`, `beforeEach`), as `juice-testkit/node-test`'s. */
export function useEmulator(config: EmulatorConfig | (() => EmulatorConfig | Promise<EmulatorConfig>) = {}, options: EmulatorOptions = {}): EmulatorFixture {
    const globals = globalThis as unknown as { before?: Register; after?: Register; beforeEach?: Register };
    const { before, after, beforeEach } = globals;
    if (!before || !after || !beforeEach) throw new Error("useEmulator() from juice-testkit/mocha runs inside Mocha (its before/after/beforeEach globals)");
    return useEmulatorWith({ before, after, beforeEach }, config, options);
}

/** An emulator for a suite of tests, whatever the runner: started before them, reset before each, closed after them. */

import { Emulator, type EmulatorConfig, type EmulatorOptions } from "./emulator.js";

/** A hook function as runners call it (Mocha's `this` has `timeout(ms)`; node:test's has none). */
type HookFunction = (this: unknown) => Promise<void>;
type Register = (fn: HookFunction) => void;

/** The hooks of a runner: node:test's `before`, `after`, `beforeEach`, or Mocha's, Jest's, Vitest's (`beforeAll` …). */
export interface RunnerHooks {
    before: Register;
    after: Register;
    beforeEach: Register;
}

/** The emulator a suite uses: `emulator` once the suite's `before` hook ran. */
export interface EmulatorFixture {
    readonly emulator: Emulator;
}

/** Gives a Mocha hook the time an emulator's start may take (Mocha's default is 2 s); nothing for other runners. */
export function allowTime(context: unknown, ms: number): void {
    const timeout = (context as { timeout?: unknown } | null | undefined)?.timeout;
    if (typeof timeout === "function") (timeout as (ms: number) => void).call(context, ms);
}

/**
 * Registers, with `hooks`, an emulator for the tests around: started before them (on ports of its own),
 * reset before each test, closed after them (also when a test failed).
 */
export function useEmulatorWith(hooks: RunnerHooks, config: EmulatorConfig | (() => EmulatorConfig | Promise<EmulatorConfig>) = {}, options: EmulatorOptions = {}): EmulatorFixture {
    let current: Emulator | null = null;
    const startupMs = options.startupTimeoutMs ?? 60_000;
    hooks.before(async function (this: unknown) {
        allowTime(this, startupMs + 10_000);
        const resolved = typeof config === "function" ? await config() : config;
        current = await Emulator.start(resolved, options);
    });
    hooks.beforeEach(async function (this: unknown) {
        await current?.reset();
    });
    hooks.after(async function (this: unknown) {
        allowTime(this, 20_000);
        const closing = current;
        current = null;
        await closing?.close();
    });
    return {
        get emulator(): Emulator {
            if (current === null) throw new Error("the emulator starts in the suite's before hook: use it inside a test or a hook");
            return current;
        },
    };
}

/**
 * juice-testkit for Node's built-in test runner (`node --test`): `useEmulator()` at the top of a test file
 * (or inside a `describe`) gives its tests an emulator, reset before each. `node --test` runs each file in a
 * process of its own, so each file gets its own emulator, on ports the emulator picked.
 *
 * ```ts
 * import { test } from "node:test";
 * import { useEmulator } from "juice-testkit/node-test";
 * const apple = useEmulator({ apps: [...], apple_ids: [alice.config()] });
 * test("first sign-in", async () => { … apple.emulator.url … });
 * ```
 */

import { after, before, beforeEach } from "node:test";
import type { EmulatorConfig, EmulatorOptions } from "./emulator.js";
import { useEmulatorWith, type EmulatorFixture } from "./fixture.js";

export type { EmulatorFixture } from "./fixture.js";

/** An emulator for the tests around: started in `before`, reset in `beforeEach`, closed in `after`. */
export function useEmulator(config: EmulatorConfig | (() => EmulatorConfig | Promise<EmulatorConfig>) = {}, options: EmulatorOptions = {}): EmulatorFixture {
    return useEmulatorWith({ before, after, beforeEach }, config, options);
}

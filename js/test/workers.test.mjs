// The pieces the Jest and Vitest helpers are made of, run here without those runners (which do not install
// on this machine): the global setup starts one emulator per worker and publishes their addresses, a
// worker attaches to its own by its worker id, the teardown stops them all.

import assert from "node:assert/strict";
import { Emulator } from "juice-testkit";
import { globalSetup, globalTeardown } from "juice-testkit/jest";
import { alive, describe, goneWithin, it } from "./support.mjs";

describe("one emulator per worker (the Jest and Vitest helpers' parts)", () => {
    it("the global setup starts one per worker, each worker reaches its own, the teardown stops them", async function () {
        this?.timeout?.(120_000);
        const variable = "JUICE_TESTKIT_EMULATORS";
        assert.equal(process.env[variable], undefined);
        try {
            await globalSetup({})({ maxWorkers: 2 });
            const addresses = JSON.parse(process.env[variable] ?? "[]");
            assert.equal(addresses.length, 2);
            assert.notEqual(addresses[0].url, addresses[1].url);
            // What a worker does: attach to the emulator its worker id names, and use it.
            const [first, second] = addresses.map((address) => Emulator.attach(address));
            await first.clock.advance(60);
            assert.equal((await second.clock.get()).offset, 0, "workers do not share an emulator");
            assert.equal(first.pid, null); // attached, not owned: closing it stops nothing
            await first.close();
            const pids = globalThis[Symbol.for("juice-testkit.jest.emulators")].map((emulator) => emulator.pid);
            assert.ok(pids.every(alive));
            await globalTeardown();
            for (const pid of pids) assert.ok(await goneWithin(pid));
        } finally {
            delete process.env[variable];
            await globalTeardown();
        }
    });
});

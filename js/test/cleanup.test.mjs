// No emulator outlives what started it: not a failing test, not Ctrl-C, not SIGTERM, under node --test and
// Mocha alike; and Mocha's root hooks give each parallel worker an emulator of its own.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { alive, describe, goneWithin, it } from "./support.mjs";

// The package as the test files see it: the one this file imports (installed, or this checkout).
const PACKAGE = dirname(createRequire(import.meta.url).resolve("juice-testkit/package.json"));

/** Runs `argv` (its own process group, like a terminal's foreground job) in a fresh directory holding `files`. */
function run(argv, files, env = {}) {
    const directory = mkdtempSync(join(tmpdir(), "juice-testkit-cleanup-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
    // The files import juice-testkit the way a user's do: from node_modules beside them.
    mkdirSync(join(directory, "node_modules"));
    symlinkSync(PACKAGE, join(directory, "node_modules", "juice-testkit"));
    // A runner started from a test must not think it runs inside this one (node --test's NODE_TEST_CONTEXT).
    const { NODE_TEST_CONTEXT, ...inherited } = process.env;
    const child = spawn(argv[0], argv.slice(1), {
        cwd: directory, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...inherited, PID_DIR: directory, ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, output })));
    return { child, directory, exited, output: () => output };
}

/** The pids the test files wrote (one file per emulator), once `count` are there. */
async function pidsIn(directory, count, running, output = () => "") {
    const deadline = Date.now() + 90_000;
    for (;;) {
        const files = readdirSync(directory).filter((name) => name.startsWith("pid-"));
        if (files.length >= count) return files.map((name) => Number(readFileSync(join(directory, name), "utf8")));
        assert.ok(Date.now() < deadline && running(), `the run did not start its emulators: ${output()}`);
        await sleep(50);
    }
}

const HOLDER = `
import { Emulator } from "juice-testkit";
const apple = await Emulator.start({});
console.log(apple.pid);
setInterval(() => {}, 1_000);
`;

const HANGING_TEST = (helper) => `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
${helper}
it("holds its emulator, then fails or hangs", async () => {
    writeFileSync(join(process.env.PID_DIR, "pid-" + apple.emulator.pid), String(apple.emulator.pid));
    if (process.env.HANG) await new Promise(() => setInterval(() => {}, 1_000));
    throw new Error("a failing test");
});
`;
const NODE_TEST = HANGING_TEST(`import { it } from "node:test";\nimport { useEmulator } from "juice-testkit/node-test";\nconst apple = useEmulator({});`);
const MOCHA_TEST = HANGING_TEST(`import { useEmulator } from "juice-testkit/mocha";\nconst apple = useEmulator({});`);

const RUNNERS = {
    "node --test": (file) => [process.execPath, "--test", file],
    mocha: (file) => ["mocha", "--timeout", "120000", file],
};
const FILES = { "node --test": NODE_TEST, mocha: MOCHA_TEST };

describe("no emulator is left behind", () => {
    for (const signal of ["SIGINT", "SIGTERM"]) {
        it(`by a Node process stopped with ${signal}`, async function () {
            this?.timeout?.(120_000);
            const holder = run([process.execPath, "holder.mjs"], { "holder.mjs": HOLDER });
            const deadline = Date.now() + 90_000;
            while (!/^\d+$/m.test(holder.output()) && Date.now() < deadline && holder.child.exitCode === null) await sleep(50);
            const pid = Number(/^(\d+)$/m.exec(holder.output())?.[1]);
            assert.ok(alive(pid), `the holder started no emulator: ${holder.output()}`);
            holder.child.kill(signal);
            const { signal: ended } = await holder.exited;
            assert.equal(ended, signal); // it ended as the signal would have ended it
            assert.ok(await goneWithin(pid), `emulator ${pid} outlived its Node process (${signal})`);
        });
    }

    for (const [name, argv] of Object.entries(RUNNERS)) {
        it(`by a failing test under ${name}`, async function () {
            this?.timeout?.(180_000);
            const started = run(argv("holds.test.mjs"), { "holds.test.mjs": FILES[name] });
            const result = await started.exited;
            assert.equal(result.code, 1, result.output);
            const [pid] = await pidsIn(started.directory, 1, () => false, () => result.output);
            assert.ok(await goneWithin(pid), `emulator ${pid} outlived the failing ${name} run`);
        });

        for (const [how, signal, group] of [["Ctrl-C", "SIGINT", true], ["SIGTERM", "SIGTERM", false]]) {
            it(`by a ${name} run interrupted with ${how}`, async function () {
                this?.timeout?.(180_000);
                const started = run(argv("holds.test.mjs"), { "holds.test.mjs": FILES[name] }, { HANG: "1" });
                const [pid] = await pidsIn(started.directory, 1, () => started.child.exitCode === null, started.output);
                assert.ok(alive(pid));
                // Ctrl-C reaches the whole foreground process group; SIGTERM (a CI's timeout) only the runner.
                process.kill(group ? -started.child.pid : started.child.pid, signal);
                const result = await started.exited;
                assert.ok(await goneWithin(pid), `emulator ${pid} outlived the ${name} run stopped with ${how}: ${result.output.slice(-1500)}`);
                assert.ok(result.code !== 0, `the interrupted run must not pass: ${result.code} ${result.signal}`);
            });
        }
    }
});

describe("Mocha's root hooks", () => {
    it("give each parallel worker an emulator of its own, reset before each test, stopped with the run", async function () {
        this?.timeout?.(240_000);
        const hooks = `
import { rootHooks } from "juice-testkit/mocha";
export const mochaHooks = rootHooks({});
`;
        const test = (n) => `
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { juiceEmulator } from "juice-testkit/mocha";
describe("file ${n}", () => {
    for (const t of [1, 2]) it("test " + t, async () => {
        const apple = juiceEmulator();
        assert.equal((await apple.clock.get()).offset, 0, "reset before each test");
        await apple.clock.advance(3600);
        writeFileSync(join(process.env.PID_DIR, "pid-" + process.pid + "-${n}-" + t), String(apple.pid));
    });
});
`;
        const files = { "hooks.mjs": hooks, "a.test.mjs": test("a"), "b.test.mjs": test("b"), "c.test.mjs": test("c"), "d.test.mjs": test("d") };
        const started = run(["mocha", "--parallel", "--jobs", "2", "--timeout", "120000", "--require", "hooks.mjs", "*.test.mjs"], files);
        const result = await started.exited;
        assert.equal(result.code, 0, result.output);
        const byWorker = new Map();
        for (const name of readdirSync(started.directory).filter((entry) => entry.startsWith("pid-"))) {
            const worker = name.split("-")[1];
            const emulators = byWorker.get(worker) ?? new Set();
            emulators.add(readFileSync(join(started.directory, name), "utf8"));
            byWorker.set(worker, emulators);
        }
        const emulators = [...byWorker.values()];
        assert.equal(emulators.length, 2, "two workers ran the four files");
        assert.ok(emulators.every((set) => set.size === 1), "one emulator per worker, shared by its files");
        const pids = emulators.map((set) => Number([...set][0]));
        assert.notEqual(pids[0], pids[1]);
        for (const pid of pids) assert.ok(await goneWithin(pid), `worker emulator ${pid} outlived the run`);
    });
});

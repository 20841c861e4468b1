// The kit's wrapper: a run that cannot start, and reports read generically (new cases, new fields, new verdicts).

import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConformanceFailedError, ConformanceReport, ConformanceRunError, Kit, freePort, newTeamKey } from "juice-testkit";
import { after, alive, before, describe, goneWithin, it } from "./support.mjs";

const paths = { json: "/r/conformance.json", junit: "/r/conformance.xml", html: "/r/conformance.html" };

describe("the conformance kit", () => {
    it("cannot run against a backend that is not there: a ConformanceRunError with the kit's reason", async function () {
        this?.timeout?.(120_000);
        const directory = mkdtempSync(join(tmpdir(), "juice-testkit-kit-"));
        const team = await newTeamKey("TEAMKITJS1", directory);
        assert.match(readFileSync(team.path, "utf8"), /BEGIN PRIVATE KEY/);
        assert.equal(team.config().keys[0].key_id, team.keyId);
        const kit = await Kit.open({ reportDir: join(directory, "reports") });
        const backend = `http://127.0.0.1:${await freePort()}`;
        await assert.rejects(
            kit.run({ backend, teamId: team.teamId, keyId: team.keyId, teamKey: team.path, clientId: "com.example.web", redirectUri: `${backend}/cb` }),
            (error) => error instanceof ConformanceRunError && error.exitStatus === 2 && error.reason.length > 0,
        );
    });

    it("newTeamKey refuses a team id Apple would not issue", async () => {
        await assert.rejects(newTeamKey("lowercase1", tmpdir()), RangeError);
    });

    it("reads a report generically: cases and fields it does not know are kept, FAILED cases fail assertOk with their ids", () => {
        const body = {
            backend: "http://127.0.0.1:9", channel: "token endpoint", catalogue: "web-2026",
            cases: [
                { id: "sign-in", verdict: "PASSED", title: "a sign-in", expect: "accept" },
                { id: "web-new-case", verdict: "FAILED", title: "new", fix: "do it", weight: 3 },
                { id: "web-later", verdict: "NOT-YET", title: "a verdict this package does not know" },
            ],
        };
        const report = ConformanceReport.parse(body, "the table\n", 1, paths);
        assert.deepEqual(report.verdicts(), { "sign-in": "PASSED", "web-new-case": "FAILED", "web-later": "NOT-YET" });
        assert.deepEqual([report.passed, report.failed, report.ok], [1, 1, false]);
        assert.equal(report.case("web-new-case").fields.weight, 3);
        assert.equal(report.fields.catalogue, "web-2026");
        assert.throws(() => report.case("nope"), RangeError);
        assert.throws(() => report.assertOk(), (error) => {
            assert.ok(error instanceof ConformanceFailedError);
            assert.deepEqual(error.failed, ["web-new-case"]);
            assert.match(error.message, /1 case\(s\) FAILED: web-new-case[\s\S]*the table[\s\S]*\/r\/conformance\.xml/);
            return true;
        });
        assert.throws(() => ConformanceReport.parse({ cases: [{ verdict: "PASSED" }] }, "", 0, paths), ConformanceRunError);
        assert.throws(() => ConformanceReport.parse({ nothing: true }, "", 0, paths), ConformanceRunError);
    });
});

describe("Kit.start: the port the kit reports, its ready line checked, its process", () => {
    let directory;
    let team;
    let backend; // a backend that never redirects to the kit: the kit listens and waits for it
    let backendURL;
    const kits = [];

    before(async function () {
        this?.timeout?.(120_000);
        directory = mkdtempSync(join(tmpdir(), "juice-testkit-kitstart-"));
        team = await newTeamKey("TEAMKITJS2", directory);
        backend = createServer((request, response) => response.writeHead(503).end());
        await new Promise((resolve) => backend.listen(0, "127.0.0.1", resolve));
        backendURL = `http://127.0.0.1:${backend.address().port}`;
    });
    after(async () => {
        await Promise.all(kits.map((kit) => kit.close()));
        await new Promise((resolve) => backend.close(resolve));
    });

    function options(extra = {}) {
        return {
            backend: backendURL, teamId: team.teamId, keyId: team.keyId, teamKey: team.path, clientId: "com.example.web",
            redirectUri: `${backendURL}/cb`, waitForBackend: 120, reportDir: mkdtempSync(join(directory, "reports-")), ...extra,
        };
    }

    async function started(extra) {
        const kit = await Kit.start(options(extra));
        kits.push(kit);
        return kit;
    }

    /** The kit's discovery document, fetched from the URL it reported. */
    async function discovery(kit) {
        const response = await fetch(`${kit.url}/.well-known/openid-configuration`);
        assert.equal(response.status, 200);
        return response.json();
    }

    it("reports the port it bound, and that port answers as Apple", async function () {
        this?.timeout?.(60_000);
        const kit = await started();
        assert.ok(Number.isInteger(kit.port) && kit.port >= 1 && kit.port <= 65535, `port ${kit.port}`);
        assert.equal(kit.url, `http://127.0.0.1:${kit.port}`);
        assert.equal((await discovery(kit)).issuer, kit.url);
        assert.ok(alive(kit.pid));
    });

    it("two kits started at once get different ports, both listening", async function () {
        this?.timeout?.(60_000);
        const [first, second] = await Promise.all([started(), started()]);
        assert.notEqual(first.port, second.port);
        assert.deepEqual([(await discovery(first)).issuer, (await discovery(second)).issuer], [first.url, second.url]);
    });

    it("a fixed port is the one it serves on; a port another kit holds is a ConformanceRunError", async function () {
        this?.timeout?.(60_000);
        const first = await started();
        const port = await freePort();
        const fixed = await Kit.open({ port });
        assert.equal(fixed.url, `http://127.0.0.1:${port}`);
        kits.push(await fixed.start(options()));
        assert.equal(fixed.port, port);
        assert.equal((await discovery(fixed)).issuer, fixed.url);
        await assert.rejects(Kit.start(options({ port: first.port })), (error) => {
            assert.ok(error instanceof ConformanceRunError, String(error));
            assert.ok(error.reason.includes(String(first.port)), error.reason);
            return true;
        });
    });

    it("a second start() on one Kit while the first is starting is refused; the first one runs", async function () {
        this?.timeout?.(60_000);
        const kit = await Kit.open();
        const first = kit.start(options());
        await assert.rejects(kit.start(options()), /already running/);
        kits.push(await first);
        assert.equal((await discovery(kit)).issuer, kit.url);
    });

    it("close() before wait() leaves no process, and wait() then says the kit is not running", async function () {
        this?.timeout?.(60_000);
        const kit = await started();
        const pid = kit.pid;
        assert.ok(alive(pid));
        await kit.close();
        assert.ok(await goneWithin(pid, 5_000), `kit ${pid} still runs`);
        assert.throws(() => process.kill(pid, 0), { code: "ESRCH" });
        assert.equal(kit.pid, null);
        await assert.rejects(kit.wait(), /not running/);
        await kit.close(); // idempotent
    });

    it("a backend never pointed at the kit: wait() rejects with the kit's reason once waitForBackend passes", async function () {
        this?.timeout?.(60_000);
        const kit = await started({ waitForBackend: 1 });
        await assert.rejects(kit.wait(), (error) => {
            assert.ok(error instanceof ConformanceRunError, String(error));
            assert.equal(error.exitStatus, 2);
            assert.ok(error.reason.includes(backendURL), error.reason);
            return true;
        });
        assert.equal(kit.pid, null);
    });

    it("a kit that exits before its ready line rejects with a ConformanceRunError naming the reason", async function () {
        this?.timeout?.(60_000);
        const missing = join(directory, "no-such-key.p8");
        await assert.rejects(Kit.start(options({ teamKey: missing })), (error) => {
            assert.ok(error instanceof ConformanceRunError, String(error));
            assert.equal(error.exitStatus, 2);
            assert.match(error.reason, /--team-key/);
            assert.ok(error.reason.includes(missing), error.reason);
            return true;
        });
    });

    it("a ready line naming another host or port is refused and its process stopped", async function () {
        this?.timeout?.(60_000);
        // A hostile kit: it says it listens somewhere a backend must never send its client secret, then stays.
        const lines = [
            { url: "http://attacker.example:4000", port: 4000, reason: /not an http URL on the loopback interface/ },
            { url: "http://127.0.0.1:4001", port: 4002, reason: /not its base URL on the port it reported/ },
            { url: "https://127.0.0.1:4003", port: 4003, reason: /not an http URL on the loopback interface/ },
        ];
        for (const { url, port, reason } of lines) {
            const fake = join(directory, `fake-juice-${port}`);
            const ready = JSON.stringify({ ready: true, url, issuer: url, port, smtp_port: null });
            writeFileSync(fake, `#!/bin/sh\necho $$ > "${fake}.pid"\necho '${ready}'\nexec sleep 60\n`);
            chmodSync(fake, 0o755);
            await assert.rejects(Kit.start(options({ juiceBin: fake })), (error) => error instanceof ConformanceRunError && reason.test(error.reason));
            const pid = Number(readFileSync(`${fake}.pid`, "utf8"));
            assert.ok(await goneWithin(pid, 5_000), `the fake kit ${pid} still runs`);
        }
    });

    it("a port out of range or a waitForBackend outside 0-600 is a RangeError before anything starts", async () => {
        for (const port of [0, -1, 65536, 1.5, Number.NaN]) await assert.rejects(Kit.start(options({ port })), RangeError);
        await assert.rejects(Kit.open({ port: 70_000 }), /port must be an integer between 1 and 65535/);
        for (const waitForBackend of [-1, 601, 2.5]) await assert.rejects(Kit.start(options({ waitForBackend })), /waitForBackend must be a whole number of seconds between 0 and 600/);
        await assert.rejects(Kit.start(options({ startupTimeoutMs: 0 })), RangeError);
        await assert.rejects(Kit.open().then((kit) => kit.url), /picks its port when it starts/);
    });
});

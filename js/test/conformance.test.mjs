// The kit's wrapper: a run that cannot start, and reports read generically (new cases, new fields, new verdicts).

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConformanceFailedError, ConformanceReport, ConformanceRunError, Kit, freePort, newTeamKey } from "juice-testkit";
import { describe, it } from "./support.mjs";

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

// The typed API as a TypeScript user meets it: test/types/consumer.{mts,cts} compile with tsc --strict against
// the installed package's .d.ts files (ES modules and CommonJS), and misuse of fail() does not.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "./support.mjs";

describe("the TypeScript declarations", () => {
    it("type-check a user's test files under tsc --strict (ESM and CommonJS)", function () {
        this?.timeout?.(180_000);
        const result = spawnSync("tsc", ["-p", new URL("types/tsconfig.json", import.meta.url).pathname], { encoding: "utf8" });
        assert.equal(result.error, undefined, `tsc could not run: ${String(result.error)}`);
        assert.equal(result.status, 0, result.stdout + result.stderr);
    });
});

/** Finding the `juice` executable this package carries (as ruff's `find_ruff_bin`, esbuild's binary lookup). */

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { JuiceNotFoundError } from "./errors.js";
import { packageDirectory } from "./location.js";

/** The platforms the package carries a binary for, as `${process.platform}-${process.arch}`. */
export const CARRIED_PLATFORMS: readonly string[] = ["linux-x64"];

function isExecutable(path: string): boolean {
    try {
        if (!statSync(path).isFile()) return false;
        accessSync(path, constants.X_OK);
        return true;
    } catch {
        return false;
    }
}

/** The platform this process runs on, in the package's naming (`linux-x64`). */
export function currentPlatform(): string {
    return `${process.platform}-${process.arch}`;
}

/** Where the package keeps the binary for `platform`: `bin/<platform>/juice`, its resource bundle beside it. */
export function carriedBinaryPath(platform = currentPlatform()): string {
    return join(packageDirectory, "bin", platform, "juice");
}

/**
 * The path of the `juice` executable: `$JUICE_BIN` (a build of your own), then the one this package
 * carries for this platform, then `juice` on `PATH`. On a platform the package carries no binary for,
 * the error says so and how to use your own build.
 */
export function findJuiceBin(): string {
    const override = process.env["JUICE_BIN"];
    if (override) {
        if (isExecutable(override)) return override;
        throw new JuiceNotFoundError(`JUICE_BIN=${JSON.stringify(override)} is not an executable file`);
    }
    const platform = currentPlatform();
    const carried = carriedBinaryPath(platform);
    if (isExecutable(carried)) return carried;
    for (const directory of (process.env["PATH"] ?? "").split(delimiter)) {
        if (!directory) continue;
        const candidate = join(directory, "juice");
        // node_modules/.bin/juice is this package's launcher, which would only come back here.
        if (candidate.endsWith(join("node_modules", ".bin", "juice"))) continue;
        if (isExecutable(candidate)) return candidate;
    }
    if (!CARRIED_PLATFORMS.includes(platform)) {
        throw new JuiceNotFoundError(
            `juice-testkit carries juice for ${CARRIED_PLATFORMS.join(", ")} only, and this is ${platform}: ` +
                "build juice from the Juice repository (swift build -c release --product juice) and set JUICE_BIN to it",
        );
    }
    throw new JuiceNotFoundError(
        `the juice executable was not found (looked at ${carried} and PATH): ` +
            "reinstall juice-testkit (the package carries it) or set JUICE_BIN",
    );
}

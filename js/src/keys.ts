/** Team keys as the developer portal gives them (a .p8), made by `juice emulator new-key`; free ports. */

import { readFileSync, renameSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { findJuiceBin } from "./binary.js";
import { JuiceError } from "./errors.js";
import { runToEnd } from "./run.js";

const inspect = Symbol.for("nodejs.util.inspect.custom");

/** A Sign in with Apple key: its team, key id, the .p8 file (mode 0600) and the public PEM for the emulator. */
export class TeamKey {
    constructor(
        readonly teamId: string,
        readonly keyId: string,
        /** The .p8 file (`AuthKey_<KEYID>.p8`). */
        readonly path: string,
        readonly publicKeyPem: string,
    ) {}

    /** The .p8's PEM, for a backend's configuration (never printed by `inspect`). */
    privateKeyPem(): string {
        return readFileSync(this.path, "utf8");
    }

    /** The `teams[]` entry of an emulator configuration. */
    config(): { team_id: string; keys: Array<{ key_id: string; public_key_pem: string }> } {
        return { team_id: this.teamId, keys: [{ key_id: this.keyId, public_key_pem: this.publicKeyPem }] };
    }

    [inspect](): string {
        return `TeamKey(${this.teamId}, ${this.keyId}, ${this.path})`;
    }
}

/** Creates `AuthKey_<KEYID>.p8` in `directory` for `teamId` (10 uppercase letters or digits). */
export async function newTeamKey(teamId: string, directory: string, options: { juiceBin?: string } = {}): Promise<TeamKey> {
    if (!/^[A-Z0-9]{10}$/.test(teamId)) throw new RangeError(`teamId must be 10 uppercase letters or digits, not ${JSON.stringify(teamId)}`);
    const staging = join(directory, `AuthKey_${teamId}.new.p8`);
    const argv = [options.juiceBin ?? findJuiceBin(), "emulator", "new-key", "--team-id", teamId, "--out", staging];
    const result = await runToEnd(argv, 60_000);
    if (result.status !== 0) throw new JuiceError(`juice emulator new-key failed: ${result.stderr.trim().slice(0, 500)}`);
    const keyId = /^Key ID:\s+(\S+)$/m.exec(result.stdout)?.[1];
    const start = result.stdout.indexOf("{");
    if (keyId === undefined || start < 0) throw new JuiceError("juice emulator new-key printed no key id");
    const entry = JSON.parse(result.stdout.slice(start)) as { public_key_pem?: unknown };
    if (typeof entry.public_key_pem !== "string") throw new JuiceError("juice emulator new-key printed no public key");
    const path = join(directory, `AuthKey_${keyId}.p8`);
    renameSync(staging, path);
    return new TeamKey(teamId, keyId, path, entry.public_key_pem);
}

/** A port free right now on `host` (for a server that must be told its port before it starts, like the kit). */
export function freePort(host = "127.0.0.1"): Promise<number> {
    return new Promise((resolve, reject) => {
        const probe = createServer();
        probe.unref();
        probe.on("error", reject);
        probe.listen(0, host, () => {
            const address = probe.address();
            const port = typeof address === "object" && address !== null ? address.port : 0;
            probe.close(() => (port ? resolve(port) : reject(new Error("no port"))));
        });
    });
}

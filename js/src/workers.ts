/**
 * One emulator per test worker, for runners whose global setup runs in another process than the tests
 * (Jest, Vitest): the setup starts one per worker and hands their addresses to the workers through an
 * environment variable the workers inherit; a worker attaches to the one its worker id names.
 */

import { Emulator, type EmulatorAddress, type EmulatorConfig, type EmulatorOptions } from "./emulator.js";

/** The environment variable carrying the emulators' addresses (URL, ports, admin token) to the workers. */
export const WORKERS_VARIABLE = "JUICE_TESTKIT_EMULATORS";

/** Starts `count` emulators (1 – 64) and publishes their addresses in `process.env[WORKERS_VARIABLE]`. */
export async function startWorkerEmulators(count: number, config: EmulatorConfig, options: EmulatorOptions): Promise<Emulator[]> {
    if (!(Number.isInteger(count) && count >= 1 && count <= 64)) throw new RangeError(`the number of workers must be 1 – 64, not ${String(count)}`);
    const started = await Promise.allSettled(Array.from({ length: count }, () => Emulator.start(config, options)));
    const emulators = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const failure = started.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failure) {
        await Promise.all(emulators.map((emulator) => emulator.close()));
        throw failure.reason;
    }
    process.env[WORKERS_VARIABLE] = JSON.stringify(emulators.map((emulator) => emulator.address));
    return emulators;
}

/** The emulator of the worker `workerId` names (1-based, as `JEST_WORKER_ID` and `VITEST_POOL_ID` are). */
export function attachWorkerEmulator(workerId: string | undefined, variableName: string): Emulator {
    const published = process.env[WORKERS_VARIABLE];
    if (!published) throw new Error(`no emulators: ${WORKERS_VARIABLE} is not set (is the global setup of juice-testkit configured?)`);
    const addresses = JSON.parse(published) as EmulatorAddress[];
    const index = Number(workerId ?? "1") - 1;
    const address = addresses[Number.isInteger(index) && index >= 0 ? index % addresses.length : 0];
    if (!address) throw new Error(`no emulator for ${variableName}=${String(workerId)}`);
    return Emulator.attach(address);
}

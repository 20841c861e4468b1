/** The emulator's clock (`/emulator/admin/clock`), reached through `emulator.clock`. */

import { Fields } from "./fields.js";
import type { ClockState } from "./models.js";

/** How the clock calls the admin API (the emulator it belongs to). */
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<unknown>;

/**
 * The emulator's clock: every expiry and retry in the emulator follows it. A backend that checks token
 * times with its own clock (jose's `jwtVerify` does) must be given the same time (jose: `currentDate`) or
 * a leeway (`clockTolerance`) after `advance()`, or it refuses new tokens as issued in its future.
 */
export class Clock {
    constructor(private readonly admin: AdminCall) {}

    async get(): Promise<ClockState> {
        return state(await this.admin("GET", "clock"));
    }

    /** The emulator's time, Unix seconds. */
    async now(): Promise<number> {
        return (await this.get()).now;
    }

    /** Sets the time (Unix seconds, years 2000 … 2100). */
    async set(unixSeconds: number): Promise<ClockState> {
        return state(await this.admin("POST", "clock", { set: unixSeconds }));
    }

    /** Moves the time forward by `seconds` (0 … ten years): codes expire, notification retries come due. */
    async advance(seconds: number): Promise<ClockState> {
        return state(await this.admin("POST", "clock", { advance: seconds }));
    }
}

function state(body: unknown): ClockState {
    const fields = Fields.of(body, "clock");
    return { now: fields.integer("now"), offset: fields.integer("offset") };
}

/** Where a started kit says it listens, checked before a backend is pointed at it. */

import { ConformanceRunError } from "./errors.js";
import type { ReadyLine } from "./ready.js";

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * The kit's `url` and `port` from its ready line, when they agree: an `http` URL on a loopback host whose
 * port is the reported one, and the port asked for when one was. Anything else is a `ConformanceRunError`
 * (a backend would send its client secrets wherever the URL points).
 */
export function kitAddress(ready: ReadyLine, askedPort: number | undefined): { url: string; port: number } {
    let parsed: URL;
    try {
        parsed = new URL(ready.url);
    } catch {
        throw new ConformanceRunError(`the kit's ready line has a URL that does not parse: ${JSON.stringify(ready.url.slice(0, 200))}`);
    }
    const shown = JSON.stringify(ready.url.slice(0, 200));
    if (parsed.protocol !== "http:" || !LOOPBACK_HOSTS.has(parsed.hostname)) {
        throw new ConformanceRunError(`the kit's ready line names ${shown}, not an http URL on the loopback interface`);
    }
    if (parsed.port !== String(ready.port) || (parsed.pathname !== "/" && parsed.pathname !== "") || parsed.search || parsed.hash || parsed.username || parsed.password) {
        throw new ConformanceRunError(`the kit's ready line names ${shown}, not its base URL on the port it reported (${ready.port})`);
    }
    if (askedPort !== undefined && ready.port !== askedPort) {
        throw new ConformanceRunError(`the kit reported port ${ready.port}, not the port ${askedPort} it was asked to serve on`);
    }
    return { url: `${parsed.protocol}//${parsed.host}`, port: ready.port };
}

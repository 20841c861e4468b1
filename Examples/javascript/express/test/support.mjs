// What the example's tests share: the runner's hooks (Mocha's globals when Mocha runs the file, node:test's
// otherwise, so one file runs under both), a backend on a real loopback server, and a browser.

import { createServer } from "node:http";

const underMocha = typeof globalThis.it === "function" && typeof globalThis.before === "function";
export const { describe, it, before, after, beforeEach } = underMocha ? globalThis : await import("node:test");

/** An HTTP server on a free loopback port; the app is mounted once it exists (its URL goes in the emulator's config first). */
export class Server {
    app = (request, response) => response.writeHead(503).end();
    #server = createServer((request, response) => this.app(request, response));

    async start() {
        await new Promise((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
        this.url = `http://127.0.0.1:${this.#server.address().port}`;
        return this;
    }

    close() {
        this.#server.closeAllConnections();
        return new Promise((resolve) => this.#server.close(resolve));
    }
}

/** fetch with a cookie jar and redirects left to the test, as a browser on http://127.0.0.1 (a secure context). */
export class Browser {
    #cookies = new Map();

    async request(method, url, form) {
        const headers = {};
        if (this.#cookies.size) headers.cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
        const init = { method, headers, redirect: "manual" };
        if (form) init.body = new URLSearchParams(form);
        const response = await fetch(url, init);
        for (const line of response.headers.getSetCookie()) {
            const [pair, ...attributes] = line.split(";");
            const index = pair.indexOf("=");
            const name = pair.slice(0, index).trim();
            const value = pair.slice(index + 1).trim();
            if (value === "" || attributes.some((attribute) => attribute.trim().toLowerCase() === "max-age=0")) this.#cookies.delete(name);
            else this.#cookies.set(name, value);
        }
        return response;
    }

    get(url) {
        return this.request("GET", url);
    }

    post(url, form) {
        return this.request("POST", url, form);
    }
}

// Sign in with Apple in an Express backend, against Juice's emulator and conformance kit. Runs under
// `node --test` and under Mocha (support.mjs hands it the runner's hooks).

import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppleID, ConformanceFailedError, Kit, newTeamKey, useEmulatorWith } from "juice-testkit";
import { createApp } from "../app.mjs";
import { Browser, Server, after, before, beforeEach, describe, it } from "./support.mjs";

const TEAM_ID = "EXAMPLE123";
const BUNDLE_ID = "com.example.express";
const CLIENT_ID = "com.example.express.web";
const ALICE = new AppleID("alice@example.org", "alice's password", "Alice", "Appleseed");

const server = new Server();
let teamKey;

function settings(appleURL, issuer) {
    return {
        baseUrl: appleURL, issuer, teamId: TEAM_ID, keyId: teamKey.keyId, privateKeyPem: teamKey.privateKeyPem(),
        clientId: CLIENT_ID, bundleId: BUNDLE_ID,
    };
}

/** Alice clicks "Sign in with Apple", signs in at Apple, and her browser posts Apple's answer back. */
async function signIn(browser, apple, options = {}) {
    const start = await browser.get(`${server.url}/login`);
    assert.equal(start.status, 302);
    const answer = await apple.signIn(start.headers.get("location"), ALICE, options);
    const callback = await browser.post(answer.redirectUri, answer.fields);
    return { callback, me: callback.status === 302 ? await browser.get(server.url + callback.headers.get("location")) : null };
}

describe("Sign in with Apple in Express", () => {
    before(async function () {
        this?.timeout?.(120_000);
        await server.start();
        teamKey = await newTeamKey(TEAM_ID, mkdtempSync(join(tmpdir(), "express-example-keys-")));
    });
    after(() => server.close());

    // The emulator: our team, our app (its redirect URI and notification URL), Alice; the mail relay on.
    const fixture = useEmulatorWith({ before, after, beforeEach }, () => ({
        teams: [teamKey.config()],
        apps: [{
            team_id: TEAM_ID, bundle_id: BUNDLE_ID, services_ids: [CLIENT_ID],
            redirect_uris: [`${server.url}/auth/apple/callback`], notification_url: `${server.url}/apple/notifications`,
            email_sources: ["example.com"], allow_local_redirects: true,
        }],
        apple_ids: [ALICE.config()],
    }), { smtpPort: 0 });

    // A fresh backend (no users) pointed at the emulator, as production points at appleid.apple.com.
    beforeEach(() => {
        server.app = createApp(settings(fixture.emulator.url, fixture.emulator.issuer));
    });

    it("a first sign-in creates the account with the name Apple sends once", async () => {
        const apple = fixture.emulator;
        const { me } = await signIn(new Browser(), apple);
        assert.equal(me.status, 200);
        const user = await me.json();
        assert.deepEqual({ ...user, sub: "…" }, { sub: "…", email: ALICE.email, name: "Alice Appleseed", privateEmail: false, signIns: 1 });
        const { codes } = await apple.issued(BUNDLE_ID);
        assert.equal(codes.length, 1);
        assert.notEqual(codes[0].usedAt, null); // the backend redeemed its code
    });

    it("a returning user keeps the name Apple sends only once", async () => {
        const first = await (await signIn(new Browser(), fixture.emulator)).me.json();
        const again = await (await signIn(new Browser(), fixture.emulator)).me.json(); // another browser, no user field
        assert.deepEqual(again, { ...first, signIns: 2 });
    });

    it("Hide My Email gives a relay address that forwards mail", async () => {
        const apple = fixture.emulator;
        const me = await (await signIn(new Browser(), apple, { emailChoice: "hide" })).me.json();
        assert.equal(me.privateEmail, true);
        assert.match(me.email, /@private\.icloud\.com$/);
        await apple.relayMail({ from: "hello@example.com", to: me.email, subject: "Welcome", text: "Hi Alice" });
        const [mail, ...more] = await apple.inbox(ALICE.email);
        assert.equal(more.length, 0);
        assert.deepEqual([mail.subject, mail.to], ["Welcome", me.email]);
        assert.match((await apple.mail(mail.id)).body ?? "", /Hi Alice/);
    });

    it("revoked consent signs the user out", async () => {
        const apple = fixture.emulator;
        const browser = new Browser();
        assert.equal((await signIn(browser, apple)).me.status, 200);
        await apple.revokeConsent(ALICE.email, CLIENT_ID); // Alice: Settings > Apple ID > Stop Using Apple ID
        await apple.waitForDelivery("consent-revoked", ALICE.email);
        assert.equal((await browser.get(`${server.url}/me`)).status, 401);
    });

    it("while Apple's token endpoint is down the sign-in fails cleanly, and works once Apple is back", async () => {
        const apple = fixture.emulator;
        const outage = await apple.fail("token_server_error", { clientId: CLIENT_ID });
        const { callback, me } = await signIn(new Browser(), apple);
        assert.equal(callback.status, 502);
        assert.match(await callback.text(), /Apple answered 503/);
        assert.equal(me, null);
        const [redemption] = await apple.requests({ path: "/auth/token", clientId: CLIENT_ID });
        assert.equal(redemption.status, 503);
        const claims = redemption.clientSecret?.claims ?? {};
        assert.equal(claims.iss, TEAM_ID);
        assert.ok(claims.exp - claims.iat <= 15_777_000, "the client secret lives under six months");
        await outage.clear();
        assert.equal((await signIn(new Browser(), apple)).me.status, 200);
    });
});

describe("the conformance kit", () => {
    before(async function () {
        this?.timeout?.(120_000);
        teamKey ??= await newTeamKey(TEAM_ID, mkdtempSync(join(tmpdir(), "express-example-keys-")));
    });

    // The kit binds a port the kernel picks and says which; the backend is pointed at it once it listens, and the
    // kit waits for the backend's start path to redirect to it before the first case.
    async function runKit(options) {
        const backend = await new Server().start(); // a backend of its own, pointed at the kit instead of the emulator
        const kit = await Kit.start({
            backend: backend.url, teamId: TEAM_ID, keyId: teamKey.keyId, teamKey: teamKey.path, clientId: CLIENT_ID,
            redirectUri: `${backend.url}/auth/apple/callback`, bundleId: BUNDLE_ID, start: "/login", probe: "/me",
            native: "/api/auth/apple", notifications: "/apple/notifications", waitForBackend: 60,
            reportDir: mkdtempSync(join(tmpdir(), "express-example-kit-")),
        });
        try {
            backend.app = createApp(settings(kit.url, kit.url), options);
            return await kit.wait();
        } finally {
            await kit.close();
            await backend.close();
        }
    }

    it("passes the kit", async function () {
        this?.timeout?.(600_000);
        const report = await runKit({ stateKeptOnServer: true });
        report.assertOk();
        assert.equal(report.case("state-replay").verdict, "PASSED");
    });

    it("names the flaw of a backend that keeps its state in a cookie", async function () {
        this?.timeout?.(600_000);
        const report = await runKit({ stateKeptOnServer: false });
        assert.throws(() => report.assertOk(), (error) => error instanceof ConformanceFailedError && /FAILED: state-replay/.test(error.message));
        assert.deepEqual(report.failures.map((failure) => failure.id), ["state-replay"]);
    });
});

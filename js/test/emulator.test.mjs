// The Emulator against the real binary: start on its own ports, the fixture API, sign-ins, mail, failures,
// captured requests, and the errors a test sees when something is wrong.

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import {
    AppleID, Emulator, EmulatorError, EmulatorStartError, JuiceNotFoundError, findJuiceBin, newTeamKey, sha256Hex, useEmulatorWith,
} from "juice-testkit";
import { after, alive, before, beforeEach, describe, it } from "./support.mjs";

const TEAM_ID = "TEAMJS0001";
const BUNDLE_ID = "com.example.kit";
const CLIENT_ID = "com.example.kit.web";
const REDIRECT_URI = "https://app.example.com/auth/apple/callback";
const TESS = new AppleID("tess@example.net", "tess's password", "Tess", "Tester");

let teamKey;

function authorizationURL(apple, extra = {}) {
    const query = new URLSearchParams({
        response_type: "code", response_mode: "form_post", client_id: CLIENT_ID, redirect_uri: REDIRECT_URI,
        scope: "name email", state: "state-1", nonce: "nonce-1", ...extra,
    });
    return `${apple.url}/auth/authorize?${query}`;
}

describe("Emulator", () => {
    before(async function () {
        this?.timeout?.(120_000);
        teamKey = await newTeamKey(TEAM_ID, mkdtempSync(join(tmpdir(), "juice-testkit-keys-")));
    });
    const fixture = useEmulatorWith({ before, after, beforeEach }, () => ({
        teams: [teamKey.config()],
        apps: [{ team_id: TEAM_ID, bundle_id: BUNDLE_ID, services_ids: [CLIENT_ID], redirect_uris: [REDIRECT_URI], email_sources: ["example.com"] }],
    }), { smtpPort: 0 });

    it("starts on ports it picked and says where, never printing its admin token", () => {
        const apple = fixture.emulator;
        assert.match(apple.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.equal(apple.issuer, apple.url);
        assert.equal(apple.url, `http://127.0.0.1:${apple.port}`);
        assert.ok(apple.smtpPort > 0 && apple.smtpPort !== apple.port);
        assert.ok(alive(apple.pid));
        for (const shown of [inspect(apple), JSON.stringify(apple)]) assert.ok(!shown.includes(apple.adminToken), shown);
        assert.ok(!inspect(TESS).includes(TESS.password) && !JSON.stringify(TESS).includes(TESS.password));
    });

    it("signs a seeded Apple ID in: the form_post fields, the once-only user, the code listed by its digest", async () => {
        const apple = fixture.emulator;
        await apple.seed({ appleIds: [TESS] });
        const first = await apple.signIn(authorizationURL(apple), TESS);
        assert.equal(first.responseMode, "form_post");
        assert.equal(first.redirectUri, REDIRECT_URI);
        assert.equal(first.state, "state-1");
        assert.deepEqual(first.user?.name, { firstName: "Tess", lastName: "Tester" });
        const { codes } = await apple.issued(BUNDLE_ID);
        assert.equal(codes.length, 1);
        assert.ok(codes[0].isFor(first.code) && codes[0].digest === sha256Hex(first.code));
        assert.equal(codes[0].usedAt, null);
        const again = await apple.signIn(authorizationURL(apple), TESS);
        assert.equal(again.user, null); // Apple sends the name only once
    });

    it("a reset forgets seeds and sign-ins, and the clock moves codes past their five minutes", async () => {
        const apple = fixture.emulator;
        await apple.seed({ appleIds: [TESS] });
        const { code } = await apple.signIn(authorizationURL(apple), TESS);
        const [listed] = (await apple.issued(BUNDLE_ID)).codes;
        assert.ok(listed.isFor(code));
        const moved = await apple.clock.advance(301);
        assert.ok(moved.now > listed.expiresAt && moved.offset >= 301);
        await apple.reset();
        assert.equal((await apple.clock.get()).offset, 0);
        assert.deepEqual((await apple.issued(BUNDLE_ID)).codes, []);
        await assert.rejects(apple.signIn(authorizationURL(apple), TESS), (error) => error instanceof EmulatorError && error.code === "invalid_credentials" && error.status === 401);
    });

    it("refuses what is wrong in the emulator's own words", async () => {
        const apple = fixture.emulator;
        await assert.rejects(apple.seed({ apps: [{ team_id: "NOSUCHTEAM", bundle_id: "com.example.other" }] }), (error) => {
            assert.ok(error instanceof EmulatorError);
            assert.equal(error.code, "invalid_request");
            assert.equal(error.status, 400);
            assert.match(error.reason, /team/);
            return true;
        });
        await assert.rejects(apple.signIn("https://appleid.apple.com/auth/authorize?client_id=x", TESS), TypeError);
        await apple.seed({ appleIds: [TESS] });
        await assert.rejects(apple.signIn(authorizationURL(apple, { redirect_uri: "https://evil.example/cb" }), TESS), (error) => error instanceof EmulatorError && error.code === "invalid_request");
        await assert.rejects(apple.admin("GET", "no-such-route"), (error) => error instanceof EmulatorError && error.status === 404);
    });

    it("a native sign-in carries the nonce as given, and its code redeems once", async () => {
        const apple = fixture.emulator;
        await apple.seed({ appleIds: [TESS] });
        const credential = await apple.nativeSignIn(BUNDLE_ID, TESS, { nonce: sha256Hex("raw nonce") });
        const claims = JSON.parse(Buffer.from(credential.identityToken.split(".")[1], "base64url").toString("utf8"));
        assert.equal(claims.nonce, sha256Hex("raw nonce"));
        assert.equal(claims.aud, BUNDLE_ID);
        assert.equal(credential.email, TESS.email);
        assert.deepEqual(credential.fullName, { givenName: "Tess", familyName: "Tester" });
        assert.ok((await apple.issued(BUNDLE_ID)).codes[0].device);
    });

    it("Hide My Email: mail through the relay reaches the inbox, and mail(id) opens what inbox() lists", async () => {
        const apple = fixture.emulator;
        await apple.seed({ appleIds: [TESS] });
        const credential = await apple.nativeSignIn(BUNDLE_ID, TESS, { emailChoice: "hide" });
        assert.match(credential.email, /@private\.icloud\.com$/);
        await apple.relayMail({ from: "news@example.com", to: credential.email, subject: "Hello", text: "line one\n.line two" });
        const [listed, ...rest] = await apple.inbox(TESS.email);
        assert.equal(rest.length, 0);
        assert.equal(typeof listed.id, "string");
        assert.deepEqual([listed.subject, listed.to, listed.deliveredTo, listed.body], ["Hello", credential.email, TESS.email, null]);
        const whole = await apple.mail(listed.id);
        assert.match(whole.body ?? "", /line one\r?\n\.line two/);
        await assert.rejects(apple.relayMail({ from: "spam@elsewhere.example", to: credential.email, subject: "x", text: "x" }), (error) => error instanceof EmulatorError && /^550/.test(error.reason));
    });

    it("fail() makes Apple fail until clear(), and requests() shows what was sent and answered", async () => {
        const apple = fixture.emulator;
        const outage = await apple.fail("token_server_error", { clientId: BUNDLE_ID, status: 502 });
        assert.deepEqual([outage.kind, outage.clientId, outage.remaining, outage.status], ["token_server_error", BUNDLE_ID, null, 502]);
        const delay = await apple.fail("keys_delay", { delaySeconds: 1, count: 1 });
        assert.deepEqual((await apple.failures()).map((failure) => failure.id), [outage.id, delay.id]);
        const form = { client_id: BUNDLE_ID, grant_type: "authorization_code", code: "c.secret-code" };
        const post = () => fetch(`${apple.url}/auth/token`, { method: "POST", body: new URLSearchParams(form) });
        assert.equal((await post()).status, 502);
        await outage.clear();
        await outage.clear(); // a second clear is a no-op
        assert.equal((await (await post()).json()).error, "invalid_client"); // no client secret
        const captured = await apple.requests({ path: "/auth/token", clientId: BUNDLE_ID });
        assert.deepEqual(captured.map((request) => [request.method, request.status, request.error, request.grantType]), [
            ["POST", 502, "server_error", "authorization_code"],
            ["POST", 400, "invalid_client", "authorization_code"],
        ]);
        assert.equal(captured[0].clientSecret, null);
        assert.ok(!JSON.stringify(captured).includes("c.secret-code")); // codes are never kept
        assert.equal(await apple.clearFailures(), 1);
        await assert.rejects(apple.fail("token_delay", { delaySeconds: 0 }), (error) => error instanceof EmulatorError && error.code === "invalid_request");
    });
});

describe("when something is wrong", () => {
    it("a configuration the emulator refuses is an EmulatorStartError with its output", async function () {
        this?.timeout?.(120_000);
        await assert.rejects(Emulator.start({ apps: [{ team_id: "NOSUCHTEAM", bundle_id: "com.example.app" }], admin_token: "do-not-show-me" }), (error) => {
            assert.ok(error instanceof EmulatorStartError, String(error));
            assert.match(error.reason, /exited with status/);
            assert.match(error.output, /NOSUCHTEAM|team/);
            assert.ok(!error.message.includes("do-not-show-me"));
            return true;
        });
    });

    it("JUICE_BIN that is not an executable is a JuiceNotFoundError naming it", () => {
        const previous = process.env.JUICE_BIN;
        const notExecutable = join(mkdtempSync(join(tmpdir(), "juice-testkit-")), "juice");
        writeFileSync(notExecutable, "not a program");
        process.env.JUICE_BIN = notExecutable;
        try {
            assert.throws(() => findJuiceBin(), (error) => error instanceof JuiceNotFoundError && error.message.includes(notExecutable));
        } finally {
            if (previous === undefined) delete process.env.JUICE_BIN;
            else process.env.JUICE_BIN = previous;
        }
    });

    it("arguments out of range are refused before anything starts", () => {
        assert.throws(() => new Emulator({}, { port: 70_000 }), RangeError);
        assert.throws(() => new Emulator({}, { relayDomain: "example.com" }), RangeError);
        assert.throws(() => new Emulator([]), TypeError);
    });
});

// An Express backend with Sign in with Apple, written the way most Node backends write it: jose's
// createRemoteJWKSet and jwtVerify against Apple's keys, an ES256 client secret, response_mode=form_post,
// state and nonce kept on the server, a native endpoint for the iPhone app, a notification endpoint.
//
// Nothing in it knows it is being tested: Apple's base URL and issuer are settings, as in production they
// are https://appleid.apple.com. `createApp(settings)` builds it; `{ stateKeptOnServer: false }` builds the
// deliberately broken variant the kit catches (the state rides in a signed cookie and is never consumed, so
// an old copy of the cookie replays a used state).

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import express from "express";
import { SignJWT, createRemoteJWKSet, importPKCS8, jwtVerify } from "jose";

const APPLE_TIMEOUT_MS = 10_000; // every call to Apple has a deadline
const STATE_LIFETIME_MS = 10 * 60_000;
const COOKIE = "Path=/; HttpOnly; Secure; SameSite=None"; // Apple's form_post is a cross-site POST

/**
 * @typedef {object} AppleSettings
 * @property {string} baseUrl        https://appleid.apple.com in production
 * @property {string} issuer         the `iss` Apple's tokens carry (configured, never read from discovery)
 * @property {string} teamId
 * @property {string} keyId
 * @property {string} privateKeyPem  the .p8
 * @property {string} clientId       the Services ID (web)
 * @property {string} bundleId       the app (native sign-ins, notifications)
 */

const random = () => randomBytes(24).toString("base64url");
const sha256Hex = (text) => createHash("sha256").update(text, "utf8").digest("hex");

function cookies(request) {
    const jar = {};
    for (const part of (request.headers.cookie ?? "").split(";")) {
        const index = part.indexOf("=");
        if (index > 0) jar[part.slice(0, index).trim()] = decodeURIComponent(part.slice(index + 1).trim());
    }
    return jar;
}

/** @param {AppleSettings} apple */
export function createApp(apple, { stateKeptOnServer = true } = {}) {
    const app = express();
    const users = new Map(); // Apple's sub -> the account
    const sessions = new Map(); // session id -> sub
    const pending = new Map(); // state -> { nonce, browser, expires }: consumed on first use
    const cookieKey = randomBytes(32);
    const appleKeys = createRemoteJWKSet(new URL(`${apple.baseUrl}/auth/keys`), { timeoutDuration: 5_000, cooldownDuration: 5_000 });
    const signingKey = importPKCS8(apple.privateKeyPem, "ES256");

    /** The ES256 client secret Apple requires, signed with the team's .p8 key (one hour). */
    async function clientSecret(clientId) {
        return new SignJWT({})
            .setProtectedHeader({ alg: "ES256", kid: apple.keyId })
            .setIssuer(apple.teamId)
            .setSubject(clientId)
            .setAudience("https://appleid.apple.com")
            .setIssuedAt()
            .setExpirationTime("1h")
            .sign(await signingKey);
    }

    /** An Apple-signed JWT (identity token, notification): RS256 with Apple's keys, iss, aud, exp, iat. */
    async function verify(token, audience) {
        const { payload } = await jwtVerify(token, appleKeys, {
            algorithms: ["RS256"], issuer: apple.issuer, audience, clockTolerance: 60, maxTokenAge: "1h",
        });
        return payload;
    }

    /** Redeems a code at Apple's token endpoint: the answer, or an error saying whether Apple refused or failed. */
    async function redeem(code, clientId, redirectUri) {
        const form = { client_id: clientId, client_secret: await clientSecret(clientId), code, grant_type: "authorization_code" };
        if (redirectUri) form.redirect_uri = redirectUri;
        let response;
        try {
            response = await fetch(`${apple.baseUrl}/auth/token`, {
                method: "POST", body: new URLSearchParams(form), signal: AbortSignal.timeout(APPLE_TIMEOUT_MS),
            });
        } catch {
            throw Object.assign(new Error("Apple did not answer"), { status: 502 });
        }
        if (response.status >= 500) throw Object.assign(new Error(`Apple answered ${response.status}`), { status: 502 });
        const body = await response.json().catch(() => null);
        if (response.status !== 200 || typeof body?.id_token !== "string") throw Object.assign(new Error("Apple refused the code"), { status: 400 });
        return body;
    }

    function signIn(response, claims, userField) {
        const user = users.get(claims.sub) ?? { sub: claims.sub, signIns: 0 };
        user.email = claims.email ?? user.email ?? null; // the signed token's, never the unsigned user field's
        user.privateEmail = String(claims.is_private_email) === "true"; // Apple sends "true" or true
        const name = userField?.name; // sent on the first sign-in only
        if (name?.firstName || name?.lastName) user.name = [name.firstName, name.lastName].filter(Boolean).join(" ");
        user.signIns += 1;
        users.set(claims.sub, user);
        const session = random();
        sessions.set(session, claims.sub);
        response.append("Set-Cookie", `session=${session}; ${COOKIE}`);
    }

    function endSessionsOf(sub) {
        users.delete(sub);
        for (const [session, owner] of sessions) if (owner === sub) sessions.delete(session);
    }

    const sign = (text) => createHmac("sha256", cookieKey).update(text).digest("base64url");

    app.get("/login", (request, response) => {
        const state = random();
        const nonce = random();
        const redirectUri = `${request.protocol}://${request.get("host")}/auth/apple/callback`;
        if (stateKeptOnServer) {
            const browser = random(); // binds the state to the browser that started
            pending.set(state, { nonce, browser, expires: Date.now() + STATE_LIFETIME_MS });
            response.append("Set-Cookie", `apple_login=${browser}; Max-Age=600; ${COOKIE}`);
        } else {
            // The broken variant: a signed cookie carries state and nonce, and nothing is ever consumed.
            const value = `${state}.${nonce}`;
            response.append("Set-Cookie", `apple_login=${value}.${sign(value)}; Max-Age=600; ${COOKIE}`);
        }
        const query = new URLSearchParams({
            response_type: "code", response_mode: "form_post", client_id: apple.clientId, redirect_uri: redirectUri,
            scope: "name email", state, nonce,
        });
        response.redirect(`${apple.baseUrl}/auth/authorize?${query}`);
    });

    /** The nonce stored for the callback's state, consumed; `null` for a state this browser was not given. */
    function takeNonce(request) {
        const state = String(request.body.state ?? "");
        const cookie = cookies(request).apple_login ?? "";
        if (stateKeptOnServer) {
            const entry = pending.get(state);
            if (!entry || !pending.delete(state)) return null; // unknown, or used already
            const same = entry.browser.length === cookie.length && timingSafeEqual(Buffer.from(entry.browser), Buffer.from(cookie));
            return same && entry.expires > Date.now() ? entry.nonce : null;
        }
        const [cookieState, nonce, mac] = cookie.split(".");
        return cookieState === state && mac === sign(`${cookieState}.${nonce}`) ? nonce : null;
    }

    app.post("/auth/apple/callback", express.urlencoded({ extended: false, limit: "64kb" }), async (request, response) => {
        const nonce = takeNonce(request);
        if (nonce === null) return response.status(400).send("Sign in with Apple failed: unknown or used state");
        if (typeof request.body.code !== "string") return response.status(400).send("Sign in with Apple failed: no code");
        try {
            const redirectUri = `${request.protocol}://${request.get("host")}/auth/apple/callback`;
            const tokens = await redeem(request.body.code, apple.clientId, redirectUri);
            const claims = await verify(tokens.id_token, apple.clientId);
            if (claims.nonce !== nonce) return response.status(400).send("Sign in with Apple failed: nonce mismatch");
            let user = null;
            try {
                user = request.body.user ? JSON.parse(request.body.user) : null;
            } catch {
                user = null;
            }
            signIn(response, claims, user);
            response.append("Set-Cookie", `apple_login=; Max-Age=0; ${COOKIE}`);
            return response.redirect("/me");
        } catch (error) {
            return response.status(error.status ?? 400).send(`Sign in with Apple failed: ${error.message}`);
        }
    });

    app.post("/api/auth/apple", express.json({ limit: "64kb" }), async (request, response) => {
        const { identityToken, authorizationCode, nonce, user } = request.body ?? {};
        if (typeof identityToken !== "string" || typeof authorizationCode !== "string" || typeof nonce !== "string") {
            return response.status(400).json({ error: "invalid_request" });
        }
        let claims;
        try {
            claims = await verify(identityToken, apple.bundleId);
        } catch {
            return response.status(400).json({ error: "invalid_token" });
        }
        if (claims.nonce !== sha256Hex(nonce)) return response.status(400).json({ error: "nonce_mismatch" });
        try {
            await redeem(authorizationCode, apple.bundleId, null);
        } catch (error) {
            return response.status(error.status ?? 400).json({ error: error.status === 502 ? "apple_unavailable" : "code_refused" });
        }
        signIn(response, claims, typeof user === "object" ? user : null);
        return response.json({ sub: claims.sub });
    });

    app.get("/me", (request, response) => {
        const sub = sessions.get(cookies(request).session ?? "");
        const user = sub === undefined ? undefined : users.get(sub);
        return user ? response.json(user) : response.status(401).send("not signed in");
    });

    app.post("/apple/notifications", express.json({ limit: "64kb" }), async (request, response) => {
        let event;
        try {
            const claims = await verify(String(request.body?.payload ?? ""), apple.bundleId);
            event = typeof claims.events === "string" ? JSON.parse(claims.events) : claims.events;
        } catch {
            return response.status(400).send("refused");
        }
        if (event?.type === "consent-revoked" || event?.type === "account-delete") endSessionsOf(String(event.sub ?? ""));
        return response.status(200).end();
    });

    return app;
}

/**
 * Completing a sign-in at the emulator as a person would, without a browser. `webSignIn` takes the
 * authorization URL a backend produced (its redirect to `/auth/authorize`), submits the emulator's
 * sign-in and consent form in one POST and returns what the browser would carry back to the backend;
 * `nativeSignIn` stands in for an iPhone's sheet.
 */

import { EmulatorError } from "./errors.js";
import { errorOf, jsonOf, request, type Answer } from "./http.js";
import { formPost, visibleText } from "./html.js";
import { parseNativeCredential, webSignIn, type AppleID, type NativeCredential, type WebSignIn } from "./models.js";

/** Share the Apple ID's email, or Hide My Email (a relay address). */
export type EmailChoice = "share" | "hide";

export interface WebSignInOptions {
    /** `hide` picks Hide My Email. Default `share`. */
    emailChoice?: EmailChoice;
    /** The name the person types on the consent page (default: the Apple ID's). */
    firstName?: string;
    lastName?: string;
    /** Presses Cancel instead of Continue. */
    cancel?: boolean;
}

export interface NativeSignInOptions {
    /** Goes into the identity token as given: an app sends the SHA-256 hex of its raw nonce (`sha256Hex(raw)`). */
    nonce?: string;
    /** Default `["name", "email"]`. */
    scopes?: readonly string[];
    state?: string;
    emailChoice?: EmailChoice;
}

function checkEmailChoice(choice: string): void {
    if (choice !== "share" && choice !== "hide") throw new TypeError(`emailChoice must be "share" or "hide", not ${JSON.stringify(choice)}`);
}

/**
 * Signs `appleID` in at the emulator for `authorizationURL` and returns the emulator's answer. Throws a
 * `TypeError` when the URL is not the emulator's `/auth/authorize` (the backend is configured with another
 * Apple base URL), an `EmulatorError` when the emulator refuses (an unregistered redirect URI; a wrong
 * password: `invalid_credentials`).
 */
export async function signInAt(emulatorURL: string, authorizationURL: string, appleID: AppleID, options: WebSignInOptions, timeoutMs: number): Promise<WebSignIn> {
    const emailChoice = options.emailChoice ?? "share";
    checkEmailChoice(emailChoice);
    const target = new URL(authorizationURL);
    const emulator = new URL(emulatorURL);
    if (target.origin !== emulator.origin || target.pathname !== "/auth/authorize") {
        throw new TypeError(
            `${target.origin}${target.pathname} is not this emulator's /auth/authorize (${emulator.origin}): ` +
                "configure the backend with the emulator's URL as Apple's base URL",
        );
    }
    const params = Object.fromEntries(target.searchParams);
    const form: Record<string, string> = {
        ...params,
        account_name: appleID.email,
        password: appleID.password,
        first_name: options.firstName ?? appleID.firstName,
        last_name: options.lastName ?? appleID.lastName,
        email_choice: emailChoice,
        action: options.cancel ? "cancel" : "continue",
    };
    const answer = await request("POST", `${emulator.origin}/auth/authorize`, { form, timeoutMs });
    const mode = params["response_mode"] || ((params["response_type"] ?? "").includes("id_token") ? "fragment" : "query");
    const redirectUri = params["redirect_uri"] ?? "";
    if ([301, 302, 303, 307].includes(answer.status)) {
        const location = answer.headers["location"] ?? "";
        const redirect = new URL(location, redirectUri || emulator.origin);
        const carried = mode === "fragment" ? new URLSearchParams(redirect.hash.slice(1)) : redirect.searchParams;
        return webSignIn(mode, redirectUri, Object.fromEntries(carried), location);
    }
    if (answer.status === 401) {
        throw new EmulatorError("invalid_credentials", `the emulator refused the Apple ID or password of ${appleID.email}`, 401, "/auth/authorize");
    }
    if (answer.status === 200 && mode === "form_post") {
        const page = formPost(answer.text);
        if (page) return webSignIn(mode, page.action, page.fields, null);
    }
    throw refusal(answer);
}

function refusal(answer: Answer): EmulatorError {
    if ((answer.headers["content-type"] ?? "").startsWith("application/json")) return errorOf(answer, "/auth/authorize");
    // An HTML error page, as Apple's: "… Error: invalid_request <the reason>".
    const text = visibleText(answer.text);
    const found = /Error:\s*([a-z_]+)\s*(.*)/.exec(text);
    if (found) return new EmulatorError(found[1] ?? "authorize_refused", (found[2] ?? "").slice(0, 400), answer.status, "/auth/authorize");
    return new EmulatorError("authorize_refused", text.slice(0, 400), answer.status, "/auth/authorize");
}

/** A device sign-in for `bundleID`: the credential (code and identity token) an app gets. */
export async function nativeSignInAt(emulatorURL: string, bundleID: string, appleID: AppleID, options: NativeSignInOptions, timeoutMs: number): Promise<NativeCredential> {
    const emailChoice = options.emailChoice ?? "share";
    checkEmailChoice(emailChoice);
    const form: Record<string, string> = {
        client_id: bundleID,
        account_name: appleID.email,
        password: appleID.password,
        scope: (options.scopes ?? ["name", "email"]).join(" "),
        first_name: appleID.firstName,
        last_name: appleID.lastName,
        email_choice: emailChoice,
    };
    if (options.nonce !== undefined) form["nonce"] = options.nonce;
    if (options.state !== undefined) form["state"] = options.state;
    const answer = await request("POST", `${new URL(emulatorURL).origin}/emulator/device/authorize`, { form, timeoutMs });
    if (answer.status !== 200) throw errorOf(answer, "/emulator/device/authorize");
    return parseNativeCredential(jsonOf(answer));
}

import Crypto
import Foundation
import JuiceEncodings
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import JuiceServer

/// Passkeys on the pages over real HTTP, answered by ``TestAuthenticator`` (none of the server's
/// WebAuthn code): the login page's sign-in route, the account page's list and forms, the offer.
@Suite("Passkeys on the web: the login route sets the session cookie; the account page's forms; origin and CSRF refusals")
struct PasskeyWebTests {
    static let password = "fresh-squeezed-42"

    /// A JSON POST from `browser` (its cookies), with `Origin: origin` when given.
    static func postJSON(_ stack: JuiceStack, _ browser: Browser, _ path: String, _ body: [String: Any], origin: String?) async throws -> HTTPResult {
        var headers = [("Content-Type", "application/json")]
        if let origin { headers.append(("Origin", origin)) }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await browser.send(.POST, stack.serverURL + path, headers: headers, body: text)
    }

    /// Signs `username` up in `browser` (a cookie session) and adds a passkey named "Phone" with the
    /// calls the account page's script makes.
    static func signUpWithPasskey(_ stack: JuiceStack, _ browser: Browser, _ username: String) async throws -> TestAuthenticator {
        _ = try await PasswordAccountTests.signUp(stack, browser, username: username, password: password)
        return try await addPasskey(stack, browser)
    }

    static func addPasskey(_ stack: JuiceStack, _ browser: Browser) async throws -> TestAuthenticator {
        let begin = try await postJSON(stack, browser, "/api/passkeys/registration/options", [:], origin: stack.serverURL)
        var authenticator = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
        let body = authenticator.register(try PasskeyAPITests.options(begin), origin: stack.serverURL, name: "Phone")
        let finish = try await postJSON(stack, browser, "/api/passkeys/registration", body, origin: stack.serverURL)
        #expect(finish.status == 201, "\(finish.body)")
        return authenticator
    }

    /// An assertion for a fresh sign-in challenge.
    static func assertion(_ stack: JuiceStack, _ authenticator: inout TestAuthenticator) async throws -> [String: Any] {
        let options = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
        return try authenticator.assert(options, origin: stack.serverURL)
    }

    /// The bodies of a page's inline scripts.
    static func inlineScripts(_ html: String) -> [String] {
        html.components(separatedBy: "<script>").dropFirst().compactMap { $0.components(separatedBy: "</script>").first }
    }

    /// Whether every inline script of `page` is allowed by its SHA-256 in the page's policy.
    static func scriptsAllowed(_ page: HTTPResult) -> Bool {
        let policy = page.headers.first(name: "Content-Security-Policy") ?? ""
        let scripts = inlineScripts(page.body)
        return !scripts.isEmpty
            && scripts.allSatisfy { policy.contains("'sha256-\(Data(SHA256.hash(data: Data($0.utf8))).base64EncodedString())'") }
    }

    @Test("the login page asks for passkeys in the username field, has the button (hidden until WebAuthn is found), and its scripts run")
    func loginPage() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            for language in ["en-US", "zh-Hans"] {
                let page = try await Browser(acceptLanguage: language).get(stack.serverURL + "/")
                #expect(page.body.contains(#"id="username" name="username" value="" autocomplete="username webauthn""#))
                #expect(page.body.contains(#"id="passkey-sign-in" hidden>"#))
                #expect(page.body.contains(language == "en-US" ? "Sign in with a Passkey" : "使用通行密钥登录"))
                #expect(Self.inlineScripts(page.body).contains(PasskeyScripts.login))
                #expect(Self.scriptsAllowed(page), "an inline script of the login page is not allowed by the policy")
                #expect(page.headers.first(name: "Content-Security-Policy")?.contains("connect-src 'self'") == true)
            }
        }
    }

    @Test(
        "a passkey sign-in on the login page ends in the usual session cookie and lands on /account as a Passkey session", arguments: TestDatabase.all
    )
    func signInSetsTheSessionCookie(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            var authenticator = try await Self.signUpWithPasskey(stack, Browser(), "cookie-fan")
            let browser = Browser()
            let login = try await browser.get(stack.serverURL + "/")
            let preSession = login.cookieValue("juice_csrf")
            let signIn = try await Self.postJSON(
                stack, browser, "/auth/passkey", try await Self.assertion(stack, &authenticator), origin: stack.serverURL)
            #expect(signIn.status == 200 && signIn.json?["location"] as? String == "/account", "\(signIn.body)")
            let cookie = signIn.setCookies["juice_session"] ?? ""
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/") && cookie.contains("Max-Age="))
            #expect(signIn.cookieValue("juice_csrf") != nil && signIn.cookieValue("juice_csrf") != preSession, "the CSRF cookie is replaced")
            #expect(signIn.headers.first(name: "Cache-Control") == "no-store")
            let account = try await browser.get(stack.serverURL + "/account")
            #expect(account.status == 200)
            #expect(account.body.contains(#"Passkey <span class="badge">This session</span>"#), "the session is listed as a passkey one")
            #expect(Self.scriptsAllowed(account), "an inline script of the account page is not allowed by the policy")
            #expect(!account.body.contains(#"id="passkey-offer""#), "no offer in a passkey session")
        }
    }

    @Test("POST /auth/passkey from another site, an opaque origin or with no Origin is refused before the assertion is spent")
    func crossOriginRefused() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            var authenticator = try await Self.signUpWithPasskey(stack, Browser(), "origin-fan")
            let assertion = try await Self.assertion(stack, &authenticator)
            let browser = Browser()
            for origin in ["https://evil.example", "null", stack.serverURL + ".evil.example", nil] {
                let refused = try await Self.postJSON(stack, browser, "/auth/passkey", assertion, origin: origin)
                #expect(refused.status == 403 && refused.error == "invalid_csrf_token", "\(origin ?? "no Origin"): \(refused.status) \(refused.body)")
                #expect(refused.setCookies["juice_session"] == nil)
            }
            let signIn = try await Self.postJSON(stack, browser, "/auth/passkey", assertion, origin: stack.serverURL)
            #expect(signIn.status == 200, "the refusals did not spend the challenge: \(signIn.body)")
        }
    }

    @Test("a cloned, removed or foreign passkey is refused with its code and a reason in the page's language")
    func refusalsAreReadable() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let owner = Browser()
            var authenticator = try await Self.signUpWithPasskey(stack, owner, "refusal-fan")
            var clone = authenticator
            let first = try await Self.postJSON(
                stack, Browser(), "/auth/passkey", try await Self.assertion(stack, &authenticator), origin: stack.serverURL)
            #expect(first.status == 200)
            let cloned = try await Self.postJSON(stack, Browser(), "/auth/passkey", try await Self.assertion(stack, &clone), origin: stack.serverURL)
            #expect(cloned.status == 401 && cloned.error == "counter_regressed")
            #expect(cloned.json?["reason"] as? String == PageStrings.english["error_counter_regressed"])

            var foreign = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            let chinese = Browser(acceptLanguage: "zh-Hans,zh;q=0.9")
            let unknown = try await Self.postJSON(stack, chinese, "/auth/passkey", try await Self.assertion(stack, &foreign), origin: stack.serverURL)
            #expect(unknown.status == 401 && unknown.error == "unknown_credential")
            #expect(unknown.json?["reason"] as? String == PageStrings.chinese["error_unknown_credential"])

            let malformed = try await Self.postJSON(stack, Browser(), "/auth/passkey", ["id": "!", "type": "public-key"], origin: stack.serverURL)
            #expect(malformed.status == 400 && malformed.error == "invalid_request", "\(malformed.body)")
        }
    }

    @Test(
        "the account page lists passkeys; its forms rename and remove them (CSRF-checked); removing the last way to sign in is refused readably",
        arguments: TestDatabase.all)
    func accountForms(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            var authenticator = try await Self.signUpWithPasskey(stack, browser, "form-fan")
            let id = Base64URL.encode(authenticator.credentialID)
            let page = try await browser.get(stack.serverURL + "/account")
            #expect(page.body.contains(#"<span class="passkey-name">Phone</span>"#))
            #expect(page.body.contains(#"data-rp-id="127.0.0.1""#))
            #expect(page.body.contains(#"data-credential-ids="\#(id)""#), "the ids for signalAllAcceptedCredentials")
            #expect(page.body.contains("not used yet"))
            #expect(page.headers.first(name: "Content-Security-Policy") == PasskeyScripts.accountContentSecurityPolicy)
            let csrf = try #require(Scrape.csrf(page.body))
            let origin = [("Origin", stack.serverURL)]

            let forged = try await browser.postForm(
                stack.serverURL + "/account/passkeys/rename", [("csrf", "forged"), ("id", id), ("name", "Mine")], headers: origin)
            #expect(forged.status == 403)
            let crossSite = try await browser.postForm(
                stack.serverURL + "/account/passkeys/remove", [("csrf", csrf), ("id", id)], headers: [("Origin", "https://evil.example")])
            #expect(crossSite.status == 403)

            let renamed = try await browser.postForm(
                stack.serverURL + "/account/passkeys/rename", [("csrf", csrf), ("id", id), ("name", "  Kitchen tablet ")], headers: origin)
            #expect(renamed.status == 303 && renamed.headers.first(name: "Location") == "/account?notice=passkey_renamed")
            let afterRename = try await browser.get(stack.serverURL + "/account?notice=passkey_renamed")
            #expect(afterRename.body.contains(#"<span class="passkey-name">Kitchen tablet</span>"#))
            #expect(afterRename.body.contains("Your passkey has been renamed."))
            let blank = try await browser.postForm(
                stack.serverURL + "/account/passkeys/rename", [("csrf", csrf), ("id", id), ("name", "   ")], headers: origin)
            #expect(blank.status == 400 && blank.body.contains(#"id="passkeys""#), "the refusal is shown on the account page")
            let nobody = try await browser.postForm(stack.serverURL + "/account/passkeys/remove", [("csrf", csrf), ("id", "AAAA")], headers: origin)
            #expect(nobody.status == 404 && nobody.body.contains(#"id="passkeys""#))

            let removed = try await browser.postForm(stack.serverURL + "/account/passkeys/remove", [("csrf", csrf), ("id", id)], headers: origin)
            let location = try #require(removed.headers.first(name: "Location"))
            #expect(removed.status == 303 && location == "/account?notice=passkey_removed&removed=\(id)")
            let afterRemoval = try await browser.get(stack.serverURL + location)
            #expect(afterRemoval.body.contains(#"data-removed-credential="\#(id)""#), "the id for signalUnknownCredential")
            #expect(!afterRemoval.body.contains("data-passkey=\"\(id)\""))
            let stale = try await browser.get(stack.serverURL + "/account?notice=passkey_removed&removed=\(Base64URL.encode([1, 2, 3]))%3Cx%3E")
            #expect(!stale.body.contains(#"data-removed-credential=""#), "only a base64url id is signalled")
            let neighbour = try await Self.signUpWithPasskey(stack, Browser(), "neighbour-fan")
            let crafted = try await browser.get(
                stack.serverURL + "/account?notice=passkey_removed&removed=\(Base64URL.encode(neighbour.credentialID))")
            #expect(!crafted.body.contains(#"data-removed-credential=""#), "a crafted link cannot make a browser drop a passkey that works")
            let signIn = try await Self.postJSON(
                stack, Browser(), "/auth/passkey", try await Self.assertion(stack, &authenticator), origin: stack.serverURL)
            #expect(signIn.status == 401 && signIn.error == "unknown_credential", "a removed passkey no longer signs in")

            // Without its password, the account's one passkey is its only way in: it stays.
            let last = try await Self.addPasskey(stack, browser)
            try await stack.withDatabase { database in
                try await database.autocommit { sql in
                    try await sql.raw("DELETE FROM password_credentials WHERE account_id = (SELECT id FROM accounts WHERE username = 'form-fan')")
                        .run()
                }
            }
            let lastID = Base64URL.encode(last.credentialID)
            let refused = try await browser.postForm(stack.serverURL + "/account/passkeys/remove", [("csrf", csrf), ("id", lastID)], headers: origin)
            #expect(refused.status == 409)
            #expect(refused.body.contains(try #require(PageStrings.english["error_last_sign_in_method"])), "\(refused.body)")
            #expect(refused.body.contains("data-passkey=\"\(lastID)\""), "the passkey is still listed")
        }
    }

    @Test("after a password sign-in the account page offers a passkey, until the account has one or this browser dismissed the offer")
    func offer() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let browser = Browser()
            _ = try await PasswordAccountTests.signUp(stack, browser, username: "offer-fan", password: Self.password)
            let page = try await browser.get(stack.serverURL + "/account?notice=welcome")
            #expect(page.body.contains(#"id="passkey-offer""#) && page.body.contains("add a passkey"))
            #expect(page.body.contains(#"id="no-passkeys""#))
            let dismissed = try await browser.postForm(
                stack.serverURL + "/account/passkeys/offer/dismiss", [("csrf", try #require(Scrape.csrf(page.body)))],
                headers: [("Origin", stack.serverURL)])
            #expect(dismissed.status == 303 && dismissed.setCookies["juice_passkey_offer"] != nil)
            #expect(try await !browser.get(stack.serverURL + "/account").body.contains(#"id="passkey-offer""#), "dismissed in this browser")
            let forged = try await browser.postForm(
                stack.serverURL + "/account/passkeys/offer/dismiss", [("csrf", "forged")], headers: [("Origin", stack.serverURL)])
            #expect(forged.status == 403)

            let other = Browser()
            _ = try await PasswordAccountTests.signIn(stack, other, username: "offer-fan", password: Self.password)
            #expect(try await other.get(stack.serverURL + "/account").body.contains(#"id="passkey-offer""#), "another browser is offered it")
            _ = try await Self.addPasskey(stack, other)
            #expect(try await !other.get(stack.serverURL + "/account").body.contains(#"id="passkey-offer""#), "not once it has a passkey")
        }
    }
}

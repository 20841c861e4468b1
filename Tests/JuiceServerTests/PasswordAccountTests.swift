import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Password accounts, sessions, sign-out, linking, CSRF")
struct PasswordAccountTests {
    /// Signs up through the page and its form; returns the session token.
    @discardableResult
    static func signUp(_ stack: JuiceStack, _ browser: Browser, username: String, password: String) async throws -> HTTPResult {
        let page = try await browser.get(stack.serverURL + "/signup")
        let csrf = try #require(Scrape.csrf(page.body))
        return try await browser.postForm(
            stack.serverURL + "/signup", [("csrf", csrf), ("username", username), ("password", password)], headers: [("Origin", stack.serverURL)]
        )
    }

    static func signIn(_ stack: JuiceStack, _ browser: Browser, username: String, password: String) async throws -> HTTPResult {
        let page = try await browser.get(stack.serverURL + "/")
        let csrf = try #require(Scrape.csrf(page.body))
        return try await browser.postForm(
            stack.serverURL + "/signin", [("csrf", csrf), ("username", username), ("password", password)], headers: [("Origin", stack.serverURL)]
        )
    }

    @Test("sign-up, sign-out (session ended server-side, cookie cleared), sign-in again", arguments: TestDatabase.all)
    func signUpSignOutSignIn(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let signUp = try await Self.signUp(stack, browser, username: "Orange.Fan", password: "squeeze-me-123")
            #expect(signUp.status == 303)
            #expect(signUp.location == "/account?notice=welcome")
            let token = try #require(signUp.cookieValue("juice_session"))
            let account = try await browser.get(stack.serverURL + (signUp.location ?? "/account"))
            #expect(account.status == 200)
            #expect(Scrape.element("username", in: account.body) == "orange.fan")
            #expect(account.body.contains("Welcome to Juice."))
            #expect(account.body.contains("No Apple ID is linked yet"))

            let signOut = try await browser.postForm(
                stack.serverURL + "/signout", [("csrf", try #require(Scrape.csrf(account.body)))], headers: [("Origin", stack.serverURL)]
            )
            #expect(signOut.status == 303)
            #expect(signOut.location == "/?notice=signed_out")
            #expect(signOut.setCookies["juice_session"]?.contains("Max-Age=0") == true)
            let me = try await AppleFlow.me(stack, token: token)
            #expect(me.status == 401, "the old token no longer works")
            #expect(me.error == "unauthorized")
            #expect(me.json?["reason"] is String)
            let afterSignOut = try await browser.get(stack.serverURL + "/account")
            #expect(afterSignOut.status == 303 && afterSignOut.location == "/")

            let again = try await Self.signIn(stack, browser, username: "orange.fan ", password: "squeeze-me-123")
            #expect(again.status == 303 && again.location == "/account")
            let newToken = try #require(again.cookieValue("juice_session"))
            #expect(newToken != token)
            #expect(try await AppleFlow.me(stack, token: newToken).json?["username"] as? String == "orange.fan")
        }
    }

    @Test("wrong password and unknown username get the same answer; repeated failures are rate limited", arguments: TestDatabase.all)
    func uniformFailuresAndRateLimit(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database, loginLimits: .init(perUsername: 3, perAddress: 50, window: 900)) { stack in
            let browser = Browser()
            try await Self.signUp(stack, browser, username: "lemon", password: "sour-but-sweet")
            let fresh = Browser()
            let wrong = try await Self.signIn(stack, fresh, username: "lemon", password: "not-the-password")
            let unknown = try await Self.signIn(stack, fresh, username: "nobody-here", password: "not-the-password")
            #expect(wrong.status == 401 && unknown.status == 401)
            #expect(wrong.setCookies["juice_session"] == nil)
            let message = "The username or password is incorrect."
            #expect(wrong.body.contains(message) && unknown.body.contains(message))
            _ = try await Self.signIn(stack, fresh, username: "lemon", password: "still-wrong")
            _ = try await Self.signIn(stack, fresh, username: "LEMON", password: "wrong-again")
            let limited = try await Self.signIn(stack, fresh, username: "lemon", password: "sour-but-sweet")
            #expect(limited.status == 429, "the right password is refused while the username is throttled")
            #expect(limited.body.contains("Too many attempts"))
            stack.clock.advance(by: 901)
            let later = try await Self.signIn(stack, Browser(), username: "lemon", password: "sour-but-sweet")
            #expect(later.status == 303)
        }
    }

    @Test("sign-up refuses a taken username and a short password, keeping the form", arguments: TestDatabase.all)
    func signUpRules(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            try await Self.signUp(stack, Browser(), username: "mango", password: "tropical-123")
            let taken = try await Self.signUp(stack, Browser(), username: "MANGO", password: "tropical-456")
            #expect(taken.status == 409)
            #expect(taken.body.contains("This username is taken."))
            let short = try await Self.signUp(stack, Browser(), username: "kiwi", password: "short")
            #expect(short.status == 400)
            #expect(short.body.contains("value=\"kiwi\""))
            let long = try await Self.signUp(stack, Browser(), username: "kiwi", password: String(repeating: "k", count: 73))
            #expect(long.status == 400)
        }
    }

    @Test("forms without the CSRF token, with another's token, or from another origin are refused", arguments: TestDatabase.all)
    func csrf(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let page = try await browser.get(stack.serverURL + "/")
            let token = try #require(Scrape.csrf(page.body))
            let missing = try await browser.postForm(stack.serverURL + "/signin", [("username", "a"), ("password", "b")])
            #expect(missing.status == 403)
            #expect(missing.body.contains("invalid_csrf_token"))
            let attacker = Browser()
            _ = try await attacker.get(stack.serverURL + "/")
            let foreign = try await attacker.postForm(stack.serverURL + "/signin", [("csrf", token), ("username", "a"), ("password", "b")])
            #expect(foreign.status == 403, "a token that is not the browser's own cookie")
            let crossOrigin = try await browser.postForm(
                stack.serverURL + "/signin", [("csrf", token), ("username", "a"), ("password", "b")], headers: [("Origin", "https://evil.example")]
            )
            #expect(crossOrigin.status == 403)

            try await Self.signUp(stack, browser, username: "grape", password: "vineyard-42")
            let signOut = try await browser.postForm(stack.serverURL + "/signout", [("csrf", "forged")])
            #expect(signOut.status == 403)
            #expect(try await browser.get(stack.serverURL + "/account").status == 200, "still signed in")
        }
    }

    @Test("signing in with Apple while signed in with a password links the Apple ID to that account", arguments: TestDatabase.all)
    func linking(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let signUp = try await Self.signUp(stack, browser, username: "peach", password: "fuzzy-fruit-9")
            let passwordToken = try #require(signUp.cookieValue("juice_session"))
            let accountID = try #require(try await AppleFlow.me(stack, token: passwordToken).json?["id"] as? String)

            // The browser carries its cookie to GET /auth/apple (same site); the callback carries none.
            let callback = try await AppleFlow.signIn(stack, browser)
            #expect(callback.status == 303)
            #expect(callback.location == "/account?notice=linked")
            let appleToken = try #require(callback.cookieValue("juice_session"))
            let me = try #require(try await AppleFlow.me(stack, token: appleToken).json)
            #expect(me["id"] as? String == accountID)
            #expect(me["username"] as? String == "peach")
            #expect(me["user"] is String)
            #expect((me["name"] as? [String: Any])?["givenName"] as? String == "Johnny")
            #expect(try await AppleFlow.me(stack, token: passwordToken).status == 401, "the password session was replaced")
            let page = try await browser.get(stack.serverURL + "/account?notice=linked")
            #expect(page.body.contains("Your Apple ID is now linked to this account."))

            // Signing in with Apple alone now reaches the same account.
            let other = Browser()
            let again = try await AppleFlow.signIn(stack, other)
            #expect(try await AppleFlow.me(stack, token: try #require(again.cookieValue("juice_session"))).json?["id"] as? String == accountID)

            // Another password account cannot take this Apple ID.
            let third = Browser()
            try await Self.signUp(stack, third, username: "plum", password: "purple-stone-7")
            let refused = try await AppleFlow.signIn(stack, third)
            #expect(refused.status == 409)
            #expect(refused.body.contains("apple_id_in_use"))
            #expect(refused.setCookies["juice_session"] == nil)
        }
    }

    @Test("GET /api/me without a session, with a bad token or an expired one is 401 JSON", arguments: TestDatabase.all)
    func apiUnauthorized(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let none = try await Browser().get(stack.serverURL + "/api/me")
            #expect(none.status == 401)
            #expect(none[header: "Content-Type"]?.hasPrefix("application/json") == true)
            #expect(none.error == "unauthorized")
            #expect(try await AppleFlow.me(stack, token: "not-a-token").status == 401)
            let signUp = try await Self.signUp(stack, Browser(), username: "cherry", password: "red-stone-fruit-1")
            let token = try #require(signUp.cookieValue("juice_session"))
            #expect(try await AppleFlow.me(stack, token: token).status == 200)
            stack.clock.advance(by: 7 * 86_400 + 1)
            #expect(try await AppleFlow.me(stack, token: token).status == 401, "sessions expire")
            let missing = try await Browser().get(stack.serverURL + "/api/nothing")
            #expect(missing.status == 404 && missing.error == "not_found")
        }
    }

    @Test("pages speak Simplified Chinese by Accept-Language; errors are friendly pages, never traces", arguments: TestDatabase.all)
    func localization(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let chinese = Browser(acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.5")
            let page = try await chinese.get(stack.serverURL + "/")
            #expect(page[header: "Content-Language"] == "zh-Hans")
            #expect(page.body.contains("<html lang=\"zh-Hans\">"))
            #expect(page.body.contains("通过 Apple 登录"))
            #expect(page.body.contains("登录 Juice"))
            let missing = try await chinese.get(stack.serverURL + "/no-such-page")
            #expect(missing.status == 404)
            #expect(missing.body.contains("此页面不存在。"))
            let english = try await Browser().get(stack.serverURL + "/no-such-page")
            #expect(english.body.contains("This page does not exist."))
            #expect(page[header: "Content-Security-Policy"]?.contains("default-src 'none'") == true)
        }
    }
}

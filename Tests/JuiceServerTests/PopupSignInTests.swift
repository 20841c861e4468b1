import Crypto
import Foundation
import JuiceInfrastructure
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import AppleIDEmulator
@testable import JuiceServer

/// The login page's popup sign-in (Sign in with Apple JS): `POST /auth/apple/popup` and
/// `POST /auth/apple/popup/complete`, with the form_post callback's checks.
@Suite("Popup Sign in with Apple (Sign in with Apple JS)")
struct PopupSignInTests {
    static func pendingAuthorizations(_ stack: JuiceStack) async throws -> Int {
        try await stack.withDatabase { database in
            try await database.read { sql in try await sql.select().column("state").from("auth_requests").all().count }
        }
    }

    @Test("a popup sign-in sets the session, keeps the once-only name, and lands on /account", arguments: TestDatabase.all)
    func signIn(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let configuration = try await PopupFlow.configuration(stack, browser)
            #expect(configuration["clientId"] as? String == StackEnvironment.servicesID)
            #expect(configuration["redirectURI"] as? String == stack.serverURL + "/auth/apple/callback")
            #expect(configuration["scope"] as? String == "name email")
            #expect(configuration["usePopup"] as? Bool == true)
            #expect((configuration["state"] as? String)?.count ?? 0 >= 32 && (configuration["nonce"] as? String)?.count ?? 0 >= 32)
            let data = try await PopupFlow.authorize(configuration, stack, browser: browser)
            #expect(data["user"] != nil, "the first authorization carries the user")
            let completed = try await PopupFlow.complete(stack, browser, try PopupFlow.answer(data), origin: stack.serverURL)
            #expect(completed.status == 200, "\(completed.body)")
            #expect(completed.json?["location"] as? String == "/account")
            let cookie = try #require(completed.setCookies["juice_session"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            #expect(completed[header: "Cache-Control"] == "no-store")
            let account = try await browser.get(stack.serverURL + "/account")
            #expect(account.status == 200)
            #expect(Scrape.element("given-name", in: account.body) == "Johnny")
            #expect(Scrape.element("email", in: account.body) == "appleseed@juice.test")

            // Again, with no user (a returning Apple ID), from a fresh browser: the same account, the name kept.
            let other = Browser()
            let second = try await PopupFlow.authorize(try await PopupFlow.configuration(stack, other), stack, browser: other)
            #expect(second["user"] == nil)
            let again = try await PopupFlow.complete(stack, other, try PopupFlow.answer(second), origin: stack.serverURL)
            #expect(again.status == 200)
            let page = try await other.get(stack.serverURL + "/account")
            #expect(Scrape.element("given-name", in: page.body) == "Johnny")
            #expect(Scrape.element("user-identifier", in: page.body) == Scrape.element("user-identifier", in: account.body))
        }
    }

    @Test("both endpoints refuse a request without this site's Origin (403 invalid_csrf_token), storing and signing in nothing")
    func sameOriginOnly() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            for origin in [nil, "https://evil.example", stack.emulatorURL] {
                let start = try await PopupFlow.start(stack, browser, origin: origin)
                #expect(start.status == 403)
                #expect(start.json?["error"] as? String == "invalid_csrf_token")
                #expect(start.json?["reason"] as? String != nil)
            }
            #expect(try await Self.pendingAuthorizations(stack) == 0)
            let data = try await PopupFlow.authorize(try await PopupFlow.configuration(stack, browser), stack, browser: browser)
            let hostile = try await PopupFlow.complete(stack, Browser(), try PopupFlow.answer(data), origin: "https://evil.example")
            #expect(hostile.status == 403)
            #expect(hostile.json?["error"] as? String == "invalid_csrf_token")
            #expect(hostile.setCookies["juice_session"] == nil)
            // Refused before anything was read: the state is still good for the real page.
            let real = try await PopupFlow.complete(stack, browser, try PopupFlow.answer(data), origin: stack.serverURL)
            #expect(real.status == 200)
        }
    }

    @Test("the state is single use: a replayed answer is refused with invalid_state")
    func replay() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            let data = try await PopupFlow.authorize(try await PopupFlow.configuration(stack, browser), stack, browser: browser)
            let body = try PopupFlow.answer(data)
            #expect(try await PopupFlow.complete(stack, browser, body, origin: stack.serverURL).status == 200)
            let replay = try await PopupFlow.complete(stack, Browser(), body, origin: stack.serverURL)
            #expect(replay.status == 400)
            #expect(replay.json?["error"] as? String == "invalid_state")
            #expect(replay.setCookies["juice_session"] == nil)
        }
    }

    @Test("forged answers are refused: a tampered token, another sign-in's code, a token for another state's nonce, an unknown state")
    func forged() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            func fresh() async throws -> [String: Any] {
                try PopupFlow.answer(try await PopupFlow.authorize(try await PopupFlow.configuration(stack, browser), stack, browser: browser))
            }
            // A token whose signature no longer matches.
            var tampered = try await fresh()
            let token = tampered["id_token"] as? String ?? ""
            tampered["id_token"] = String(token.dropLast(4)) + (token.hasSuffix("AAAA") ? "BBBB" : "AAAA")
            let badToken = try await PopupFlow.complete(stack, browser, tampered, origin: stack.serverURL)
            #expect(badToken.status == 400)
            #expect(badToken.json?["error"] as? String == "invalid_identity_token")

            // Another sign-in's code: c_hash does not match.
            var first = try await fresh()
            let second = try await fresh()
            first["code"] = second["code"]
            let swapped = try await PopupFlow.complete(stack, browser, first, origin: stack.serverURL)
            #expect(swapped.status == 400)
            #expect(swapped.json?["error"] as? String == "invalid_identity_token")

            // A token minted for one state's nonce, presented with another (still unused) state.
            let third = try await fresh()
            var crossed = try await fresh()
            crossed["state"] = third["state"]
            let mismatched = try await PopupFlow.complete(stack, browser, crossed, origin: stack.serverURL)
            #expect(mismatched.status == 400)
            #expect(mismatched.json?["error"] as? String == "invalid_identity_token")

            // A state the server never issued.
            var unknown = try await fresh()
            unknown["state"] = "never-issued"
            let refused = try await PopupFlow.complete(stack, browser, unknown, origin: stack.serverURL)
            #expect(refused.status == 400)
            #expect(refused.json?["error"] as? String == "invalid_state")
            #expect(try await browser.get(stack.serverURL + "/account").status == 303, "never signed in")
        }
    }

    @Test("malformed bodies get specific JSON errors: not JSON 415, no state 400, a malformed user 400, too large 413")
    func malformed() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            let url = stack.serverURL + "/auth/apple/popup/complete"
            let form = try await PopupFlow.post(
                url, "code=a&state=b", browser, origin: stack.serverURL, contentType: "application/x-www-form-urlencoded")
            #expect(form.status == 415)
            #expect(form.json?["error"] as? String == "unsupported_media_type")
            for body in [#"{"code": "a", "id_token": "b"}"#, #"{"code": "a", "id_token": "b", "state": "c", "user": 7}"#, "[", #"{"code": 5}"#] {
                let answer = try await PopupFlow.post(url, body, browser, origin: stack.serverURL)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.json?["error"] as? String == "invalid_request", "\(body)")
            }
            let huge = try await PopupFlow.post(
                url, #"{"code": ""# + String(repeating: "a", count: 70_000) + #""}"#, browser, origin: stack.serverURL)
            #expect(huge.status == 413)
        }
    }

    @Test("the login page loads Sign in with Apple JS from the Apple base URL, allowed by its CSP, and a GET stores nothing")
    func loginPage() async throws {
        try await JuiceStack.with { stack in
            let page = try await Browser().get(stack.serverURL + "/")
            #expect(page.status == 200)
            #expect(page.body.contains(#"<script src="\#(stack.emulatorURL)/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js"></script>"#))
            let policy = try #require(page[header: "Content-Security-Policy"])
            // The inline script, as served, is the one the policy allows.
            let inline = try #require(page.body.components(separatedBy: "<script>").dropFirst().first?.components(separatedBy: "</script>").first)
            let hash = Data(SHA256.hash(data: Data(inline.utf8))).base64EncodedString()
            #expect(policy.contains("script-src \(stack.emulatorURL) 'sha256-\(hash)'"), "\(policy)")
            #expect(policy.contains("connect-src 'self'"))
            #expect(page.body.contains(#"href="/auth/apple""#), "the link still works without JavaScript")
            let chinese = try await Browser(acceptLanguage: "zh-CN").get(stack.serverURL + "/")
            #expect(chinese.body.contains("/appleid/1/zh_CN/appleid.auth.js"))
            #expect(try await Self.pendingAuthorizations(stack) == 0, "showing the login page writes nothing")
            // The served script is the one the page names.
            let script = try await Browser().get(stack.emulatorURL + "/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js")
            #expect(script.status == 200)
        }
    }

    @Test("production loads the script from Apple's CDN and allows that origin only")
    func production() {
        let script = AppleJSScript(appleBaseURL: URL(string: "https://appleid.apple.com")!)
        #expect(script.scriptURL(.english) == "https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js")
        #expect(script.scriptURL(.simplifiedChinese) == "https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/zh_CN/appleid.auth.js")
        #expect(script.contentSecurityPolicy.contains("script-src https://appleid.cdn-apple.com 'sha256-"))
        let local = AppleJSScript(appleBaseURL: URL(string: "http://127.0.0.1:8081/")!)
        #expect(local.scriptURL(.english) == "http://127.0.0.1:8081/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js")
        #expect(local.scriptOrigin == "http://127.0.0.1:8081")
    }

    @Test(
        "headless Chromium signs in through the popup and reaches /account; with JavaScript off the link's redirect flow still works",
        .enabled(if: BrowserTools.shouldRun, "needs chromium, chromedriver and python3 with selenium (scripts/test installs them)"),
        .timeLimit(.minutes(8))
    )
    func browser() async throws {
        guard BrowserTools.available else {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires the browser test, but \(BrowserTools.missing) is missing")
            return
        }
        try await JuiceStack.with { stack in
            let output = TestOutput.base.appendingPathComponent("browser-popup")
            try? FileManager.default.removeItem(at: output)
            let (status, text) = try await BrowserTools.runPython(
                script: BrowserTools.repository.appendingPathComponent("Tests/JuiceServerTests/Fixtures/browser_popup_signin.py"),
                arguments: [stack.serverURL, StackEnvironment.johnny.email, StackEnvironment.johnny.password, output.path],
                log: output.appendingPathComponent("browser.log"), limit: .seconds(150)
            )
            #expect(status == 0, "\(text)")
            #expect(text.contains("popup sign-in: ok"), "\(text)")
        }
    }
}

import Crypto
import Foundation
import JuiceServer
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import Testing

@Suite("Account settings: weak passwords refused, change password, add a password, sessions, Password AutoFill's well-known files")
struct AccountSettingsTests {
    static func signUp(_ stack: JuiceStack, _ username: String, _ password: String) async throws -> HTTPResult {
        try await APIRequests.json(stack, "POST", "/api/accounts", ["username": username, "password": password])
    }

    static func signIn(_ stack: JuiceStack, _ username: String, _ password: String) async throws -> HTTPResult {
        try await APIRequests.json(stack, "POST", "/api/auth/password", ["username": username, "password": password])
    }

    @Test(
        "sign-up refuses common, username-containing, repetitive and sequential passwords with weak_password and the rule",
        arguments: TestDatabase.all)
    func weakSignUps(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let cases: [(String, String)] = [
                ("password123", "commonly used or breached"), ("Sunshine1", "commonly used or breached"), ("grove-is-mine", "username"),
                ("bbbbbbbb", "repeated"), ("xyzxyzxyz", "repeated"), ("23456789", "consecutive"), ("mnopqrst", "consecutive"),
            ]
            for (password, rule) in cases {
                let refused = try await Self.signUp(stack, "grove", password)
                #expect(refused.status == 400, "\(password)")
                #expect(refused.error == "weak_password", "\(password)")
                let reason = refused.json?["reason"] as? String ?? ""
                #expect(reason.contains(rule), "\(password): \(reason)")
                #expect(!reason.contains(password), "the reason never repeats the password")
            }
            #expect(try await Self.signIn(stack, "grove", "password123").error == "invalid_credentials", "no account was made")
            #expect(try await Self.signUp(stack, "grove", "squeeze-me-123").status == 201)

            // The page keeps the form, says which rule, and carries the typing hint (allowed by its hash only).
            let browser = Browser()
            let page = try await browser.get(stack.serverURL + "/signup")
            #expect(page.body.contains("id=\"password-strength\""))
            let script = try #require(page.body.components(separatedBy: "<script>").dropFirst().first?.components(separatedBy: "</script>").first)
            let hash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
            let policy = page[header: "Content-Security-Policy"] ?? ""
            #expect(policy.contains("script-src 'sha256-\(hash)'"), "\(policy)")
            #expect(policy.contains("default-src 'none'"))
            #expect(!page.body.contains("<script src"))
            let refused = try await PasswordAccountTests.signUp(stack, browser, username: "lime", password: "password123")
            #expect(refused.status == 400)
            #expect(refused.body.contains("commonly used or breached"))
            #expect(refused.body.contains("value=\"lime\""))
        }
    }

    @Test(
        "POST /api/account/password: 204, other sessions end; wrong current password 401 and throttled; weak or unchanged refused",
        arguments: TestDatabase.all)
    func changePassword(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database, loginLimits: .init(perUsername: 3, perAddress: 50, window: 900)) { stack in
            let first = try #require(try await Self.signUp(stack, "orchard", "squeeze-me-123").json?["token"] as? String)
            let second = try #require(try await Self.signIn(stack, "orchard", "squeeze-me-123").json?["token"] as? String)
            let path = "/api/account/password"

            #expect(try await APIRequests.json(stack, "POST", path, ["current_password": "squeeze-me-123", "new_password": "x"]).status == 401)
            let missing = try await APIRequests.json(stack, "POST", path, ["new_password": "pressed-pear-88"], bearer: second)
            #expect(missing.status == 400 && missing.error == "invalid_request")
            let weak = try await APIRequests.json(
                stack, "POST", path, ["current_password": "squeeze-me-123", "new_password": "iloveyou"], bearer: second)
            #expect(weak.status == 400 && weak.error == "weak_password")
            let same = try await APIRequests.json(
                stack, "POST", path, ["current_password": "squeeze-me-123", "new_password": "squeeze-me-123"], bearer: second)
            #expect(same.status == 400 && same.error == "weak_password")
            #expect((same.json?["reason"] as? String)?.contains("same as the current") == true)
            let short = try await APIRequests.json(
                stack, "POST", path, ["current_password": "squeeze-me-123", "new_password": "tiny"], bearer: second)
            #expect(short.status == 400 && short.error == "invalid_password")

            let wrong = try await APIRequests.json(
                stack, "POST", path, ["current_password": "not-my-password", "new_password": "pressed-pear-88"], bearer: second)
            #expect(wrong.status == 401 && wrong.error == "invalid_credentials")
            _ = try await APIRequests.json(
                stack, "POST", path, ["current_password": "still-wrong-1", "new_password": "pressed-pear-88"], bearer: second)
            _ = try await APIRequests.json(
                stack, "POST", path, ["current_password": "still-wrong-2", "new_password": "pressed-pear-88"], bearer: second)
            let limited = try await APIRequests.json(
                stack, "POST", path, ["current_password": "squeeze-me-123", "new_password": "pressed-pear-88"], bearer: second)
            #expect(limited.status == 429 && limited.error == "rate_limited", "the right password waits out the throttle")
            #expect(try await Self.signIn(stack, "orchard", "squeeze-me-123").status == 429, "the same throttle as sign-in")
            stack.clock.advance(by: 901)

            let changed = try await APIRequests.json(
                stack, "POST", path, ["current_password": "squeeze-me-123", "new_password": "pressed-pear-88"], bearer: second)
            #expect(changed.status == 204)
            #expect(changed.body.isEmpty)
            #expect(try await AppleFlow.me(stack, token: first).status == 401, "the other session ended")
            #expect(try await AppleFlow.me(stack, token: second).status == 200, "this session goes on")
            #expect(try await Self.signIn(stack, "orchard", "squeeze-me-123").error == "invalid_credentials")
            #expect(try await Self.signIn(stack, "orchard", "pressed-pear-88").status == 200)
        }
    }

    @Test(
        "an Apple-only account adds a password only within 5 minutes of signing in with Apple, choosing a username; then signs in with it",
        arguments: TestDatabase.all)
    func addPassword(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            try await AppleFlow.signIn(stack, browser)
            let host = try #require(URL(string: stack.serverURL)?.host)
            let token = try #require(await browser.cookie("juice_session", host: host))
            let path = "/api/account/password"

            let page = try await browser.get(stack.serverURL + "/account/password")
            #expect(page.status == 200)
            #expect(page.body.contains("Add a Password"))
            #expect(!page.body.contains("current_password"))

            let noName = try await APIRequests.json(stack, "POST", path, ["new_password": "golden-delicious-4"], bearer: token)
            #expect(noName.status == 400 && noName.error == "invalid_request")
            let weak = try await APIRequests.json(stack, "POST", path, ["username": "johnny", "new_password": "johnny2024!"], bearer: token)
            #expect(weak.status == 400 && weak.error == "weak_password")

            stack.clock.advance(by: 301)
            let stale = try await APIRequests.json(stack, "POST", path, ["username": "johnny", "new_password": "golden-delicious-4"], bearer: token)
            #expect(stale.status == 403 && stale.error == "reauthentication_required")

            let again = Browser()
            try await AppleFlow.signIn(stack, again)
            let fresh = try #require(await again.cookie("juice_session", host: host))
            let added = try await APIRequests.json(stack, "POST", path, ["username": "Johnny", "new_password": "golden-delicious-4"], bearer: fresh)
            #expect(added.status == 204)
            #expect(try await AppleFlow.me(stack, token: token).status == 401, "the older session ended")
            let signIn = try await Self.signIn(stack, "johnny", "golden-delicious-4")
            #expect(signIn.status == 200)
            #expect((signIn.json?["account"] as? [String: Any])?["user"] as? String != nil, "the same account, with its Apple ID")
            let change = try await APIRequests.json(stack, "POST", path, ["new_password": "golden-delicious-5"], bearer: fresh)
            #expect(change.status == 400 && change.error == "invalid_request", "now the current password is required")
        }
    }

    @Test(
        "GET /api/account/sessions lists method, times and the current one; DELETE ends one or all others, never another account's",
        arguments: TestDatabase.all)
    func sessions(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let first = try #require(try await Self.signUp(stack, "prune", "purple-plum-7").json?["token"] as? String)
            stack.clock.advance(by: 5)
            let second = try #require(try await Self.signIn(stack, "prune", "purple-plum-7").json?["token"] as? String)
            let third = try #require(try await Self.signIn(stack, "prune", "purple-plum-7").json?["token"] as? String)
            let other = try #require(try await Self.signUp(stack, "nectarine", "fuzzy-peach-9").json?["token"] as? String)

            #expect(try await APIRequests.json(stack, "GET", "/api/account/sessions").status == 401)
            stack.clock.advance(by: 61)
            _ = try await AppleFlow.me(stack, token: second)
            let listed = try await APIRequests.json(stack, "GET", "/api/account/sessions", bearer: second)
            #expect(listed.status == 200)
            let sessions = try #require(listed.json?["sessions"] as? [[String: Any]])
            #expect(sessions.count == 3)
            #expect(sessions.allSatisfy { $0["method"] as? String == "password" && $0["createdAt"] is String && $0["expiresAt"] is String })
            let current = try #require(sessions.first { $0["current"] as? Bool == true })
            let seen = try #require(current["lastSeenAt"] as? String, "used a minute after it started")
            // Recorded at most once a minute: a use 30 s later writes nothing, one 61 s later does.
            func lastSeen() async throws -> String? {
                let list = try await APIRequests.json(stack, "GET", "/api/account/sessions", bearer: second).json?["sessions"] as? [[String: Any]]
                return list?.first { $0["current"] as? Bool == true }?["lastSeenAt"] as? String
            }
            stack.clock.advance(by: 30)
            #expect(try await lastSeen() == seen)
            stack.clock.advance(by: 31)
            _ = try await AppleFlow.me(stack, token: second)
            #expect(try await lastSeen() != seen)
            #expect(sessions.filter { $0["current"] as? Bool == true }.count == 1)
            let firstID = try #require(sessions.last?["id"] as? String, "oldest last")

            let otherID = try #require(
                (try await APIRequests.json(stack, "GET", "/api/account/sessions", bearer: other).json?["sessions"] as? [[String: Any]])?.first?["id"]
                    as? String)
            let foreign = try await APIRequests.json(stack, "DELETE", "/api/account/sessions/\(otherID)", bearer: second)
            #expect(foreign.status == 404 && foreign.error == "not_found")
            #expect(try await AppleFlow.me(stack, token: other).status == 200, "another account's session is untouched")
            #expect(try await APIRequests.json(stack, "DELETE", "/api/account/sessions/nope", bearer: second).status == 404)

            let ended = try await APIRequests.json(stack, "DELETE", "/api/account/sessions/\(firstID)", bearer: second)
            #expect(ended.status == 204)
            #expect(try await AppleFlow.me(stack, token: first).status == 401)
            let rest = try await APIRequests.json(stack, "DELETE", "/api/account/sessions", bearer: second)
            #expect(rest.status == 200 && rest.json?["ended"] as? Int == 1)
            #expect(try await AppleFlow.me(stack, token: third).status == 401)
            #expect(try await AppleFlow.me(stack, token: second).status == 200)
            #expect(try await AppleFlow.me(stack, token: other).status == 200)
        }
    }

    @Test(
        "the account page lists the sessions and signs out the others; the password page changes the password (CSRF-checked)",
        arguments: TestDatabase.all)
    func pages(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            try await PasswordAccountTests.signUp(stack, browser, username: "bing", password: "red-cherry-1")
            let elsewhere = try #require(try await Self.signIn(stack, "bing", "red-cherry-1").json?["token"] as? String)
            let account = try await browser.get(stack.serverURL + "/account")
            #expect(account.body.contains("Where you are signed in"))
            #expect(account.body.components(separatedBy: "data-session=").count - 1 == 2)
            #expect(account.body.contains("This session"))
            #expect(account.body.contains(" UTC</time>"), "times read 2026-11-23 10:19 UTC")
            #expect(account.body.contains("href=\"/account/password\""))
            let csrf = try #require(Scrape.csrf(account.body))

            let forged = try await browser.postForm(
                stack.serverURL + "/account/sessions/end-others", [("csrf", "forged")], headers: [("Origin", stack.serverURL)])
            #expect(forged.status == 403)
            #expect(try await AppleFlow.me(stack, token: elsewhere).status == 200)
            let endOthers = try await browser.postForm(
                stack.serverURL + "/account/sessions/end-others", [("csrf", csrf)], headers: [("Origin", stack.serverURL)])
            #expect(endOthers.status == 303 && endOthers.location == "/account?notice=sessions_ended")
            #expect(try await AppleFlow.me(stack, token: elsewhere).status == 401)

            let page = try await browser.get(stack.serverURL + "/account/password")
            #expect(page.status == 200)
            #expect(page.body.contains("autocomplete=\"current-password\"") && page.body.contains("autocomplete=\"new-password\""))
            #expect(page[header: "Content-Security-Policy"]?.contains("script-src 'sha256-") == true)
            let formCSRF = try #require(Scrape.csrf(page.body))
            let wrong = try await browser.postForm(
                stack.serverURL + "/account/password",
                [("csrf", formCSRF), ("current_password", "nope-nope-1"), ("new_password", "black-cherry-2")], headers: [("Origin", stack.serverURL)])
            #expect(wrong.status == 401)
            #expect(wrong.body.contains("The username or password is incorrect."))
            let changed = try await browser.postForm(
                stack.serverURL + "/account/password",
                [("csrf", formCSRF), ("current_password", "red-cherry-1"), ("new_password", "black-cherry-2")], headers: [("Origin", stack.serverURL)]
            )
            #expect(changed.status == 303 && changed.location == "/account?notice=password_changed")
            #expect(try await Self.signIn(stack, "bing", "black-cherry-2").status == 200)
        }
    }

    @Test(
        "hostile input to the new endpoints: another origin with the cookie, malformed or mistyped JSON, a wrong media type, odd ids",
        arguments: TestDatabase.all)
    func hostileInput(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            try await PasswordAccountTests.signUp(stack, browser, username: "cydonia", password: "golden-quince-3")
            let host = try #require(URL(string: stack.serverURL)?.host)
            let token = try #require(await browser.cookie("juice_session", host: host))
            let body = #"{"current_password": "golden-quince-3", "new_password": "golden-quince-4"}"#
            for origin in ["https://evil.example", "null"] {
                let forged = try await browser.send(
                    .POST, stack.serverURL + "/api/account/password", headers: [("Content-Type", "application/json"), ("Origin", origin)], body: body)
                #expect(forged.status == 403 && forged.error == "invalid_csrf_token", "\(origin)")
                let ended = try await browser.send(.DELETE, stack.serverURL + "/api/account/sessions", headers: [("Origin", origin)], body: nil)
                #expect(ended.status == 403 && ended.error == "invalid_csrf_token")
            }
            let noOrigin = try await browser.send(
                .POST, stack.serverURL + "/api/account/password", headers: [("Content-Type", "application/json")], body: body)
            #expect(noOrigin.status == 403)
            #expect(try await Self.signIn(stack, "cydonia", "golden-quince-3").status == 200, "nothing changed")

            let path = "/api/account/password"
            let bearer = [("Authorization", "Bearer \(token)")]
            for (contentType, text, status, code) in [
                ("application/json", "{\"new_password\": ", 400, "invalid_request"),
                ("application/json", #"{"current_password": 7, "new_password": ["x"]}"#, 400, "invalid_request"),
                ("application/json", "[]", 400, "invalid_request"),
                ("text/plain", body, 415, "unsupported_media_type"),
                (
                    "application/json",
                    #"{"current_password": "golden-quince-3", "new_password": ""# + String(repeating: "a", count: 70_000) + #""}"#, 413,
                    "payload_too_large"
                ),
                (
                    "application/json", #"{"current_password": "golden-quince-3", "new_password": ""# + String(repeating: "é", count: 40) + #""}"#,
                    400, "password_too_long"
                ),
            ] as [(String, String, Int, String)] {
                let answer = try await Browser().send(.POST, stack.serverURL + path, headers: bearer + [("Content-Type", contentType)], body: text)
                #expect(
                    answer.status == status && answer.error == code, "\(contentType) \(text.prefix(40)): \(answer.status) \(answer.body.prefix(200))")
                #expect(answer.json?["reason"] is String)
            }
            for id in ["%00", String(repeating: "x", count: 300), "..%2F..%2Fetc", "'%20OR%201=1"] {
                let odd = try await Browser().send(.DELETE, stack.serverURL + "/api/account/sessions/" + id, headers: bearer, body: nil)
                #expect(odd.status == 404 && odd.error == "not_found", "\(id.prefix(20)): \(odd.status)")
            }
            #expect(try await AppleFlow.me(stack, token: token).status == 200, "the session survived all of it")
        }
    }

    @Test("Password AutoFill: the apple-app-site-association file names TEAMID.BUNDLEID as JSON, no redirect; change-password redirects")
    func wellKnown() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let association = try await Browser().get(stack.serverURL + "/.well-known/apple-app-site-association")
            #expect(association.status == 200)
            #expect(association[header: "Content-Type"] == "application/json")
            let apps = (association.json?["webcredentials"] as? [String: Any])?["apps"] as? [String]
            #expect(apps == ["\(StackEnvironment.teamID).\(StackEnvironment.bundleID)"])
            #expect(try await Browser().get(stack.serverURL + "/.well-known/apple-app-site-association.json").status == 404)

            let change = try await Browser().get(stack.serverURL + "/.well-known/change-password")
            #expect(change.status == 303 && change.location == "/account/password")
            let signedOut = try await Browser().get(stack.serverURL + "/account/password")
            #expect(signedOut.status == 303 && signedOut.location == "/")
        }
    }
}

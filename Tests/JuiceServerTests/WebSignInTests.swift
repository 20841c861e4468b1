import AppleSignIn
import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Web Sign in with Apple, end to end against the emulator")
struct WebSignInTests {
    @Test(
        "a cookie-less cross-site callback signs in: session cookie, account page, /api/me, hashed session, sealed refresh token",
        arguments: TestDatabase.all)
    func signIn(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let authorizeURL = try await AppleFlow.start(stack, browser)
            let query = Dictionary(uniqueKeysWithValues: Scrape.query(authorizeURL))
            #expect(authorizeURL.hasPrefix(stack.emulatorURL + "/auth/authorize?"))
            #expect(query["response_type"] == "code id_token")
            #expect(query["response_mode"] == "form_post")
            #expect(query["scope"] == "name email")
            #expect(query["client_id"] == StackEnvironment.servicesID)
            #expect(query["redirect_uri"] == stack.serverURL + "/auth/apple/callback")
            #expect((query["state"]?.count ?? 0) >= 32 && (query["nonce"]?.count ?? 0) >= 32)

            let post = try await AppleFlow.authorize(authorizeURL, browser: browser)
            #expect(post.field("user") != nil, "the first authorization carries the once-only user data")
            let callback = try await AppleFlow.deliver(post, stack, browser)
            #expect(callback.status == 303)
            #expect(callback.location == "/account")
            let cookie = try #require(callback.setCookies["juice_session"])
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"), "the public URL is http")
            let token = try #require(callback.cookieValue("juice_session"))

            let account = try await browser.get(stack.serverURL + "/account")
            #expect(account.status == 200)
            #expect(Scrape.element("given-name", in: account.body) == "Johnny")
            #expect(Scrape.element("family-name", in: account.body) == "Appleseed")
            #expect(Scrape.element("email", in: account.body) == "appleseed@juice.test")

            let me = try await AppleFlow.me(stack, token: token)
            #expect(me.status == 200)
            let json = try #require(me.json)
            let subject = try #require(json["user"] as? String)
            #expect(subject.split(separator: ".").count == 3)
            #expect(Scrape.element("user-identifier", in: account.body) == subject)
            #expect((json["name"] as? [String: Any])?["givenName"] as? String == "Johnny")
            #expect(json["email"] as? String == "appleseed@juice.test")
            #expect(json["isPrivateEmail"] as? Bool == false)

            let environment = stack.environment
            try await stack.withDatabase { database in
                let rows = try await database.read { sql in
                    try await sql.select().columns("token_hash").from("sessions").all().map { try $0.decode(column: "token_hash", as: String.self) }
                }
                let expected = SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
                #expect(rows == [expected], "only the token's SHA-256 is stored")
                let sealed = try await database.read { sql in
                    try await sql.select().column("refresh_token").from("apple_identities").first()?.decode(column: "refresh_token", as: String?.self)
                }
                let box = try #require(sealed)
                let refreshToken = try RefreshTokenCipher(key: environment.serverSecret).open(box, subject: subject)
                #expect(!refreshToken.isEmpty && !box.contains(refreshToken), "the refresh token is stored sealed")
                #expect(throws: (any Error).self) { try RefreshTokenCipher(key: environment.serverSecret).open(box, subject: "another-sub") }
            }
        }
    }

    @Test("a replayed callback is refused with a 4xx and no session", arguments: TestDatabase.all)
    func replay(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            let first = try await AppleFlow.deliver(post, stack, browser)
            #expect(first.status == 303)
            let attacker = Browser()
            let replay = try await AppleFlow.deliver(post, stack, attacker)
            #expect(replay.status == 400)
            #expect(replay.setCookies["juice_session"] == nil)
            #expect(replay.body.contains("invalid_state"))
            #expect(replay.body.contains("This sign-in has expired or was already used"))
        }
    }

    @Test(
        "forged callbacks are refused with a 4xx and no session: unknown state, tampered token, another flow's token or code",
        arguments: TestDatabase.all)
    func forgeries(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            func refused(_ post: AppleFlow.ApplePost, _ code: String) async throws {
                // Delivered to the browser that started the flow: the forgery, not the browser, is what is refused.
                let result = try await AppleFlow.deliver(post, stack, browser)
                #expect(result.status == 400, "\(code): \(result.status)")
                #expect(result.setCookies["juice_session"] == nil)
                #expect(result.body.contains(code), "expected \(code)")
            }
            // An unknown state.
            let genuine = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            try await refused(genuine.replacing("state", with: "forged-state"), "invalid_state")

            // A token whose signature was altered.
            let token = try #require(genuine.field("id_token"))
            var parts = token.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            try await refused(genuine.replacing("id_token", with: parts.joined(separator: ".")), "invalid_identity_token")

            // The state was consumed by the refused attempt: the genuine answer no longer works.
            try await refused(genuine, "invalid_state")

            // Flow A's token posted with flow B's state: the nonce does not match.
            let flowA = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            let flowB = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            try await refused(
                flowB.replacing("id_token", with: flowA.field("id_token")!).replacing("code", with: flowA.field("code")!), "invalid_identity_token")

            // Flow C's code with flow D's token: c_hash does not match.
            let flowC = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            let flowD = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            try await refused(flowD.replacing("code", with: flowC.field("code")!), "invalid_identity_token")

            // No identity token at all.
            let flowE = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            try await refused(AppleFlow.ApplePost(action: flowE.action, fields: flowE.fields.filter { $0.0 != "id_token" }), "invalid_identity_token")

            try await stack.withDatabase { database in
                let count = try await database.read { sql in try await sql.select().column("id").from("sessions").all().count }
                #expect(count == 0)
            }
        }
    }

    @Test("cancelling at Apple returns to / with a message, and the state is spent", arguments: TestDatabase.all)
    func cancel(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), action: "cancel", browser: browser)
            #expect(post.field("error") == "user_cancelled_authorize")
            let result = try await AppleFlow.deliver(post, stack, browser)
            #expect(result.status == 303)
            #expect(result.location == "/?notice=cancelled")
            #expect(result.setCookies["juice_session"] == nil)
            let page = try await browser.get(stack.serverURL + (result.location ?? "/"))
            #expect(page.body.contains("Sign in with Apple was cancelled."))
            try await stack.withDatabase { database in
                let pending = try await database.read { sql in try await sql.select().column("state").from("auth_requests").all().count }
                #expect(pending == 0)
            }
        }
    }

    @Test("a sign-in answered after the state's ten minutes is refused", arguments: TestDatabase.all)
    func expiredState(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, browser), browser: browser)
            stack.clock.advance(by: 601)
            let result = try await AppleFlow.deliver(post, stack, browser)
            #expect(result.status == 400)
            #expect(result.body.contains("invalid_state"))
        }
    }

    @Test(
        "the name from the first sign-in is kept; later sign-ins (after a restart) bring none and change nothing but the email",
        arguments: TestDatabase.all)
    func nameKeptAcrossRestart(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { environment in
            let clock = TestClock()
            let first = try await JuiceStack.with(environment: environment, clock: clock) { stack in
                let browser = Browser()
                let result = try await AppleFlow.signIn(stack, browser)
                let me = try await AppleFlow.me(stack, token: try #require(result.cookieValue("juice_session")))
                return try #require(me.json?["id"] as? String)
            }
            try await JuiceStack.with(environment: environment, clock: clock) { stack in
                let browser = Browser()
                let url = try await AppleFlow.start(stack, browser)
                let post = try await AppleFlow.authorize(url, browser: browser)
                #expect(post.field("user") == nil, "Apple sends the user data only once")
                let result = try await AppleFlow.deliver(post, stack, browser)
                #expect(result.status == 303)
                let me = try await AppleFlow.me(stack, token: try #require(result.cookieValue("juice_session")))
                let json = try #require(me.json)
                #expect(json["id"] as? String == first, "the same account")
                #expect((json["name"] as? [String: Any])?["givenName"] as? String == "Johnny")
                #expect((json["name"] as? [String: Any])?["familyName"] as? String == "Appleseed")
                #expect(json["email"] as? String == "appleseed@juice.test")
            }
        }
    }

    @Test("a relay address is stored and marked on the account page", arguments: TestDatabase.all)
    func relayEmail(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let browser = Browser()
            let result = try await AppleFlow.signIn(stack, browser, account: StackEnvironment.jane, emailChoice: "hide")
            #expect(result.status == 303)
            let me = try await AppleFlow.me(stack, token: try #require(result.cookieValue("juice_session")))
            #expect((me.json?["email"] as? String)?.hasSuffix("@private.icloud.com") == true)
            #expect(me.json?["isPrivateEmail"] as? Bool == true)
            let page = try await browser.get(stack.serverURL + "/account")
            #expect(page.body.contains("Private relay address"))
        }
    }
}

import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

/// Sign-in and linking CSRF (issue 27, finding 1): a web sign-in finishes only in the browser that
/// started it, and a link only in the session that asked for it.
@Suite("Sign in with Apple is bound to the browser and session that started it (login and linking CSRF)")
struct LinkingCSRFTests {
    /// The account behind a session token (`/api/me`).
    static func me(_ stack: JuiceStack, _ token: String) async throws -> [String: Any] {
        try #require(try await AppleFlow.me(stack, token: token).json)
    }

    @Test("an attacker starts linking, the victim continues at Apple in their own browser: refused, nothing linked", arguments: TestDatabase.all)
    func linkStartedByAttacker(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let attacker = Browser()
            let signUp = try await PasswordAccountTests.signUp(stack, attacker, username: "mallory", password: "bitter-lemon-77")
            let attackerToken = try #require(signUp.cookieValue("juice_session"))
            // The attacker, signed in, starts "link Apple ID" and stops at Apple's page: that URL is the bait.
            let bait = try await AppleFlow.start(stack, attacker)

            // The victim opens it, signs in at Apple with their own Apple ID, and their browser posts back.
            let victim = Browser()
            let post = try await AppleFlow.authorize(bait, account: StackEnvironment.johnny, browser: victim)
            let finished = try await AppleFlow.deliver(post, stack, victim)
            #expect(finished.status == 403, "\(finished.status) \(finished.location ?? "")")
            #expect(finished.body.contains("browser_mismatch"))
            #expect(finished.body.contains("started in another browser"))
            #expect(finished.setCookies["juice_session"] == nil)

            // Nothing was linked: the attacker's account has no Apple ID, and the victim's Apple ID
            // later signs in to an account of its own.
            #expect(try await Self.me(stack, attackerToken)["user"] == nil)
            let own = try await AppleFlow.signIn(stack, Browser(), account: StackEnvironment.johnny)
            #expect(own.location == "/account")
            let victimAccount = try await Self.me(stack, try #require(own.cookieValue("juice_session")))
            #expect(victimAccount["id"] as? String != (try await Self.me(stack, attackerToken))["id"] as? String)
            #expect(victimAccount["username"] == nil)
        }
    }

    @Test(
        "login CSRF: the attacker's own completed sign-in, posted from the victim's browser, does not sign the victim in", arguments: TestDatabase.all
    )
    func loginStartedByAttacker(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let attacker = Browser()
            let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, attacker), account: StackEnvironment.jane, browser: attacker)
            // The attacker's page makes the victim's browser post Apple's answer to the callback.
            let victim = Browser()
            let finished = try await AppleFlow.deliver(post, stack, victim)
            #expect(finished.status == 403)
            #expect(finished.body.contains("browser_mismatch"))
            #expect(finished.setCookies["juice_session"] == nil)
            #expect(await victim.cookie("juice_session", host: "127.0.0.1") == nil)
        }
    }

    @Test("a forged flow cookie, or a state re-bound to another browser's cookie, is refused")
    func forgedBinding() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let starter = Browser()
            let post = try await AppleFlow.authorize(try await AppleFlow.start(stack, starter), browser: starter)
            let victim = Browser()
            // The victim's browser has a flow cookie of its own (it started a sign-in once): still not this flow's.
            _ = try await AppleFlow.start(stack, victim)
            let finished = try await AppleFlow.deliver(post, stack, victim)
            #expect(finished.status == 403)
            #expect(finished.body.contains("browser_mismatch"))

            // A sealed answer that was altered is refused as an expired sign-in.
            let second = try await AppleFlow.authorize(try await AppleFlow.start(stack, starter), browser: starter)
            let callback = try await starter.postForm(second.action, second.fields, headers: [("Origin", stack.emulatorURL)], sendCookies: false)
            let location = try #require(callback.location)
            var characters = Array(location)
            let middle = characters.count - 40
            characters[middle] = characters[middle] == "A" ? "B" : "A"
            let tampered = String(characters)
            let refused = try await starter.get(stack.serverURL + tampered)
            #expect(refused.status == 400)
            #expect(refused.body.contains("invalid_state"))
            #expect(refused.setCookies["juice_session"] == nil)
        }
    }

    @Test("a link started in one session and finished after the browser switched to another session is refused")
    func linkFinishedInAnotherSession() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let browser = Browser()
            let first = try await PasswordAccountTests.signUp(stack, browser, username: "first-user", password: "cherry-stone-51")
            let firstToken = try #require(first.cookieValue("juice_session"))
            let bait = try await AppleFlow.start(stack, browser)
            // Same browser (same flow cookie), but now signed in as someone else.
            let second = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "second-user", "password": "plum-orchard-62"])
            await browser.setCookie("juice_session", try #require(second.json?["token"] as? String), host: "127.0.0.1")
            let post = try await AppleFlow.authorize(bait, browser: browser)
            let finished = try await AppleFlow.deliver(post, stack, browser)
            #expect(finished.status == 403)
            #expect(finished.body.contains("browser_mismatch"))
            #expect(try await Self.me(stack, firstToken)["user"] == nil)
        }
    }

    @Test("popup: a state started in the attacker's browser and completed from the victim's is refused", arguments: TestDatabase.all)
    func popupStartedByAttacker(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let attacker = Browser()
            let configuration = try await PopupFlow.configuration(stack, attacker)
            let victim = Browser()
            let data = try await PopupFlow.authorize(configuration, stack, account: StackEnvironment.johnny, browser: victim)
            let completed = try await PopupFlow.complete(stack, victim, try PopupFlow.answer(data), origin: stack.serverURL)
            #expect(completed.status == 403)
            #expect(completed.error == "browser_mismatch")
            #expect(completed.setCookies["juice_session"] == nil)
        }
    }

    @Test("the flow cookie is HttpOnly, SameSite=Lax, scoped to the authorization lifetime; __Host- and Secure only over https")
    func cookieShape() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let start = try await Browser().get(stack.serverURL + "/auth/apple")
            let header = try #require(start.setCookies["juice_flow"])
            #expect(header.contains("HttpOnly"))
            #expect(header.contains("SameSite=Lax"))
            #expect(header.contains("Path=/"))
            #expect(header.contains("Max-Age=600"))
            #expect(!header.contains("Secure"))
        }
        let binding = FlowBinding(secure: true, lifetime: 600, random: .seeded(1), secret: .init(size: .bits256))
        #expect(binding.cookieName == "__Host-juice_flow")
    }
}

import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

/// Automatic passkey upgrades (conditional create) over the API, answered by ``TestAuthenticator``.
@Suite("Automatic passkey upgrade: UP=0 accepted only for the session that signed in with a password minutes ago, recorded as automatic")
struct PasskeyUpgradeTests {
    /// UV and AT, UP clear: what a conditional create may return.
    static let withoutPresence: UInt8 = 0x44

    static func upgradeOptions(_ stack: JuiceStack, _ token: String) async throws -> HTTPResult {
        try await APIRequests.json(stack, "POST", "/api/passkeys/upgrade/options", bearer: token)
    }

    @Test("a fresh password session upgrades without UP; the passkey says automatic; the ordinary route still needs UP", arguments: TestDatabase.all)
    func upgrade(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let token = try await PasskeyAPITests.signUp(stack, "upgrade-fan")
            let ordinary = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token))
            var silent = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            let refused = try await APIRequests.json(
                stack, "POST", "/api/passkeys/registration", silent.register(ordinary, origin: stack.serverURL, flags: Self.withoutPresence),
                bearer: token)
            #expect(refused.status == 400 && refused.error == "user_presence_missing", "an ordinary registration needs UP")

            let begin = try await Self.upgradeOptions(stack, token)
            #expect(begin.status == 200, "\(begin.body)")
            var authenticator = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            let finish = try await APIRequests.json(
                stack, "POST", "/api/passkeys/upgrade",
                authenticator.register(try PasskeyAPITests.options(begin), origin: stack.serverURL, flags: Self.withoutPresence), bearer: token)
            #expect(finish.status == 201, "\(finish.body)")
            #expect(finish.json?["automatic"] as? Bool == true)
            let stored = try await stack.withDatabase { database in
                try await database.read { sql in
                    try await sql.raw("SELECT automatic FROM passkey_credentials").all().map { try $0.decode(column: "automatic", as: Int64.self) }
                }
            }
            #expect(stored == [1], "recorded as an automatic upgrade")
            let options = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let signIn = try await APIRequests.json(stack, "POST", "/api/auth/passkey", try authenticator.assert(options, origin: stack.serverURL))
            #expect(signIn.status == 200, "the upgraded passkey signs in (with UP, as every assertion must)")
        }
    }

    @Test("refused: another session's upgrade, an ordinary challenge, a passkey session, a password sign-in too long ago")
    func refusals() async throws {
        let clock = TestClock()
        try await JuiceStack.with(database: .sqlite, clock: clock) { stack in
            let token = try await PasskeyAPITests.signUp(stack, "careful-upgrader")
            let other = try #require(
                try await APIRequests.json(stack, "POST", "/api/auth/password", ["username": "careful-upgrader", "password": "fresh-squeezed-42"])
                    .json?["token"] as? String)

            // Begun by one session, finished by another session of the same account.
            let begun = try PasskeyAPITests.options(try await Self.upgradeOptions(stack, token))
            var first = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            let crossed = try await APIRequests.json(
                stack, "POST", "/api/passkeys/upgrade", first.register(begun, origin: stack.serverURL, flags: Self.withoutPresence), bearer: other)
            #expect(crossed.status == 400 && crossed.error == "challenge_unknown", "\(crossed.body)")

            // An ordinary registration's challenge is not an upgrade's.
            let ordinary = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token))
            var second = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            let misused = try await APIRequests.json(
                stack, "POST", "/api/passkeys/upgrade", second.register(ordinary, origin: stack.serverURL, flags: Self.withoutPresence), bearer: token
            )
            #expect(misused.status == 400 && misused.error == "challenge_unknown")

            // A passkey session never upgrades.
            var keeper = try await PasskeyAPITests.register(stack, token: token)
            let signInOptions = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let passkeySession = try #require(
                try await APIRequests.json(stack, "POST", "/api/auth/passkey", try keeper.assert(signInOptions, origin: stack.serverURL))
                    .json?["token"] as? String)
            let fromPasskey = try await Self.upgradeOptions(stack, passkeySession)
            #expect(fromPasskey.status == 403 && fromPasskey.error == "upgrade_not_allowed")

            // Options taken in time, answered after the window: refused; so are new options.
            let late = try PasskeyAPITests.options(try await Self.upgradeOptions(stack, token))
            clock.advance(by: PasskeyUpgrade.window + 1)
            var third = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            let stale = try await APIRequests.json(
                stack, "POST", "/api/passkeys/upgrade", third.register(late, origin: stack.serverURL, flags: Self.withoutPresence), bearer: token)
            #expect(stale.status == 403 && stale.error == "upgrade_not_allowed")
            #expect(try await Self.upgradeOptions(stack, token).error == "upgrade_not_allowed")
        }
    }

    @Test("the account page asks for the upgrade (data-upgrade) right after a password sign-up, not minutes later")
    func pageOffersUpgrade() async throws {
        let clock = TestClock()
        try await JuiceStack.with(database: .sqlite, clock: clock) { stack in
            let browser = Browser()
            _ = try await PasswordAccountTests.signUp(stack, browser, username: "page-upgrader", password: PasskeyWebTests.password)
            let fresh = try await browser.get(stack.serverURL + "/account")
            #expect(fresh.body.contains(#"data-upgrade="offered""#))
            #expect(PasskeyWebTests.scriptsAllowed(fresh), "the account script (with the upgrade) is allowed by its hash")
            clock.advance(by: PasskeyUpgrade.window + 1)
            let later = try await browser.get(stack.serverURL + "/account")
            #expect(!later.body.contains(#"data-upgrade="offered""#), "too long after the password sign-in")
        }
    }
}

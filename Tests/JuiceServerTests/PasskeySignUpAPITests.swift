import Foundation
import JuiceEncodings
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

/// Signing up with a passkey alone over the JSON API, answered by ``TestAuthenticator``: the account,
/// its passkey and its session come together or not at all.
@Suite("Passkey sign-up API: an account with only a passkey; taken, abandoned, replayed and forged finishes leave nothing")
struct PasskeySignUpAPITests {
    /// Begins a sign-up (`username` nil: none), answers it with a new authenticator, and returns the
    /// finish body with the authenticator.
    static func answer(_ stack: JuiceStack, username: String?) async throws -> (body: [String: Any], authenticator: TestAuthenticator) {
        let begin = try await APIRequests.json(stack, "POST", "/api/accounts/passkey/options", username.map { ["username": $0] } ?? [:])
        let options = try PasskeyAPITests.options(begin)
        var authenticator = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
        var body = authenticator.register(options, origin: stack.serverURL, name: "Phone")
        body["userHandle"] = (options["user"] as? [String: Any])?["id"] as? String
        if let username { body["username"] = username }
        return (body, authenticator)
    }

    /// How many accounts and passkeys the database holds.
    static func counts(_ stack: JuiceStack) async throws -> [Int] {
        try await stack.withDatabase { database in
            try await database.read { sql in
                try await sql.raw("SELECT (SELECT COUNT(*) FROM accounts) AS a, (SELECT COUNT(*) FROM passkey_credentials) AS p").first().map {
                    [Int(try $0.decode(column: "a", as: Int64.self)), Int(try $0.decode(column: "p", as: Int64.self))]
                } ?? []
            }
        }
    }

    @Test(
        "sign up with only a passkey, sign in with it; the last passkey stays until a password is added; replay refused",
        arguments: TestDatabase.all)
    func signUpSignInAddPassword(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let begin = try await APIRequests.json(stack, "POST", "/api/accounts/passkey/options", ["username": "  Passkey-First "])
            #expect(begin.status == 200, "\(begin.body)")
            let options = try PasskeyAPITests.options(begin)
            let user = try #require(options["user"] as? [String: Any])
            #expect(user["name"] as? String == "passkey-first", "the normalized username")
            #expect(Base64URL.decode(user["id"] as? String ?? "")?.count == 32)
            #expect((options["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "required")
            #expect(try await Self.counts(stack) == [0, 0], "options write nothing")

            var authenticator = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
            var body = authenticator.register(options, origin: stack.serverURL, name: "Phone")
            body["userHandle"] = user["id"]
            body["username"] = "  Passkey-First "
            let finish = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", body)
            #expect(finish.status == 201, "\(finish.body)")
            let token = try #require(finish.json?["token"] as? String)
            #expect((finish.json?["account"] as? [String: Any])?["username"] as? String == "passkey-first")
            let list = try await APIRequests.json(stack, "GET", "/api/passkeys", bearer: token)
            let passkeys = try #require(list.json?["passkeys"] as? [[String: Any]])
            #expect(passkeys.count == 1 && passkeys.first?["name"] as? String == "Phone")

            let replay = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", body)
            #expect(replay.status == 400 && replay.error == "challenge_unknown", "\(replay.body)")
            #expect(try await Self.counts(stack) == [1, 1], "a replayed finish makes nothing")

            let signInOptions = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let signIn = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try authenticator.assert(signInOptions, origin: stack.serverURL))
            #expect(signIn.status == 200, "\(signIn.body)")
            #expect((signIn.json?["account"] as? [String: Any])?["username"] as? String == "passkey-first")

            let id = try #require(passkeys.first?["id"] as? String)
            let last = try await APIRequests.json(stack, "DELETE", "/api/passkeys/\(id)", bearer: token)
            #expect(last.status == 409 && last.error == "last_sign_in_method", "its only way in stays")
            let added = try await APIRequests.json(stack, "POST", "/api/account/password", ["new_password": "pressed-pear-88"], bearer: token)
            #expect(added.status == 204, "\(added.body)")
            let password = try await APIRequests.json(
                stack, "POST", "/api/auth/password", ["username": "passkey-first", "password": "pressed-pear-88"])
            #expect(password.status == 200, "the username it chose signs in with the new password")
            let removed = try await APIRequests.json(stack, "DELETE", "/api/passkeys/\(id)", bearer: token)
            #expect(removed.status == 204, "with a password, the passkey may go")
        }
    }

    @Test("without a username: a generated name for the authenticator, an account with no username", arguments: TestDatabase.all)
    func withoutUsername(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let (body, _) = try await Self.answer(stack, username: nil)
            let handle = try #require(Base64URL.decode(body["userHandle"] as? String ?? ""))
            let finish = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", body)
            #expect(finish.status == 201, "\(finish.body)")
            let account = try #require(finish.json?["account"] as? [String: Any])
            #expect(account["username"] == nil || account["username"] is NSNull)
            #expect(PasskeySignUp.generatedName(userHandle: handle).hasPrefix("account-"))
            // Adding a password needs a username then.
            let token = try #require(finish.json?["token"] as? String)
            let missing = try await APIRequests.json(stack, "POST", "/api/account/password", ["new_password": "pressed-pear-88"], bearer: token)
            #expect(missing.status == 400 && missing.error == "invalid_request")
            let named = try await APIRequests.json(
                stack, "POST", "/api/account/password", ["username": "late-name", "new_password": "pressed-pear-88"], bearer: token)
            #expect(named.status == 204, "\(named.body)")
            #expect(try await APIRequests.json(stack, "GET", "/api/me", bearer: token).json?["username"] as? String == "late-name")
        }
    }

    @Test("a username taken meanwhile, forged handles and names, abandoned and bad usernames: refused, nothing written", arguments: TestDatabase.all)
    func refusals(database: TestDatabase) async throws {
        let clock = TestClock()
        try await JuiceStack.with(database: database, clock: clock) { stack in
            let (raced, _) = try await Self.answer(stack, username: "contested")
            let password = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "Contested", "password": "fresh-squeezed-42"])
            #expect(password.status == 201)
            let lost = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", raced)
            #expect(lost.status == 409 && lost.error == "username_taken", "\(lost.body)")
            #expect(try await Self.counts(stack) == [1, 0], "no half-made account, no passkey")
            let taken = try await APIRequests.json(stack, "POST", "/api/accounts/passkey/options", ["username": "CONTESTED"])
            #expect(taken.status == 409 && taken.error == "username_taken")
            let invalid = try await APIRequests.json(stack, "POST", "/api/accounts/passkey/options", ["username": "a b"])
            #expect(invalid.status == 400 && invalid.error == "invalid_username")

            var (forged, _) = try await Self.answer(stack, username: "honest")
            forged["username"] = "someone-else"
            let renamed = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", forged)
            #expect(renamed.status == 400 && renamed.error == "challenge_unknown", "another username than the options'")
            forged["username"] = "honest"
            forged["userHandle"] = Base64URL.encode([UInt8](repeating: 7, count: 32))
            let rehandled = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", forged)
            #expect(rehandled.status == 400 && rehandled.error == "challenge_unknown", "another user handle than the options'")
            forged["userHandle"] = Base64URL.encode([UInt8](repeating: 7, count: 65))
            let oversized = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", forged)
            #expect(oversized.status == 400 && oversized.error == "invalid_request", "a user handle over 64 bytes")

            let (abandoned, _) = try await Self.answer(stack, username: "slowpoke")
            clock.advance(by: 601)
            let late = try await APIRequests.json(stack, "POST", "/api/accounts/passkey", abandoned)
            #expect(late.status == 400 && late.error == "challenge_expired", "\(late.body)")
            #expect(try await Self.counts(stack) == [1, 0])
        }
    }
}

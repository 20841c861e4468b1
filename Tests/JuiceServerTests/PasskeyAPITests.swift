import Foundation
import JuiceEncodings
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

/// The native passkey API over real HTTP, answered by ``TestAuthenticator`` (swift-crypto and its own
/// CBOR, none of the server's WebAuthn code).
@Suite("Passkey API: registration and sign-in over HTTP; replayed, cloned, foreign and stale answers refused")
struct PasskeyAPITests {
    /// A password account's bearer token.
    static func signUp(_ stack: JuiceStack, _ username: String) async throws -> String {
        let signUp = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": username, "password": "fresh-squeezed-42"])
        return try #require(signUp.json?["token"] as? String)
    }

    /// The `publicKey` options of a begin call.
    static func options(_ result: HTTPResult) throws -> [String: Any] {
        try #require(result.json?["publicKey"] as? [String: Any], "no publicKey in \(result.status) \(result.body)")
    }

    static func rpID(_ stack: JuiceStack) -> String { URL(string: stack.serverURL)?.host ?? "" }

    /// Registers a new authenticator's passkey to the account of `token`.
    static func register(_ stack: JuiceStack, token: String) async throws -> TestAuthenticator {
        var authenticator = TestAuthenticator(rpID: rpID(stack))
        let begin = try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token)
        let body = authenticator.register(try options(begin), origin: stack.serverURL)
        let finish = try await APIRequests.json(stack, "POST", "/api/passkeys/registration", body, bearer: token)
        #expect(finish.status == 201, "\(finish.body)")
        return authenticator
    }

    @Test("a passkey is added to a signed-in account, listed, and signs in to that account", arguments: TestDatabase.all)
    func registerAndSignIn(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let token = try await Self.signUp(stack, "passkey-owner")
            let begin = try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token)
            #expect(begin.status == 200)
            let options = try Self.options(begin)
            #expect((options["rp"] as? [String: Any])?["id"] as? String == Self.rpID(stack))
            #expect((options["user"] as? [String: Any])?["name"] as? String == "passkey-owner")
            #expect((options["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-7, -8, -257])
            #expect((options["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "required")

            var authenticator = TestAuthenticator(rpID: Self.rpID(stack))
            let finish = try await APIRequests.json(
                stack, "POST", "/api/passkeys/registration", authenticator.register(options, origin: stack.serverURL, name: "  Laptop  "),
                bearer: token)
            #expect(finish.status == 201)
            #expect(finish.json?["name"] as? String == "Laptop")
            #expect(finish.json?["algorithm"] as? String == "ES256")
            #expect(finish.json?["transports"] as? [String] == ["internal"], "an unknown transport is dropped")
            let list = try await APIRequests.json(stack, "GET", "/api/passkeys", bearer: token)
            #expect((list.json?["passkeys"] as? [[String: Any]])?.count == 1)

            let again = try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token)
            let excluded = (try Self.options(again)["excludeCredentials"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(excluded == [finish.json?["id"] as? String ?? "-"], "the next registration excludes the passkey it has")

            let signInOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            #expect(signInOptions["rpId"] as? String == Self.rpID(stack))
            let assertion = try authenticator.assert(signInOptions, origin: stack.serverURL)
            let signIn = try await APIRequests.json(stack, "POST", "/api/auth/passkey", assertion)
            #expect(signIn.status == 200, "\(signIn.body)")
            let passkeyToken = try #require(signIn.json?["token"] as? String)
            let me = try await APIRequests.json(stack, "GET", "/api/me", bearer: passkeyToken)
            #expect(me.json?["username"] as? String == "passkey-owner")
            let used = try await APIRequests.json(stack, "GET", "/api/passkeys", bearer: passkeyToken)
            #expect((used.json?["passkeys"] as? [[String: Any]])?.first?["lastUsedAt"] is String)

            let replay = try await APIRequests.json(stack, "POST", "/api/auth/passkey", assertion)
            #expect(replay.status == 400 && replay.error == "challenge_unknown", "an assertion works once")
            let metrics = try await Browser().get(stack.serverURL + "/metrics").body
            #expect(metrics.contains(#"juice_sign_ins_total{method="passkey",outcome="success"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"juice_sign_ins_total{method="passkey",outcome="challenge_unknown"} 1"#))
        }
    }

    @Test("a cloned authenticator (counter not above the stored one) is refused; the original goes on", arguments: TestDatabase.all)
    func clonedAuthenticator(database: TestDatabase) async throws {
        try await JuiceStack.with(database: database) { stack in
            let token = try await Self.signUp(stack, "clone-victim")
            var original = try await Self.register(stack, token: token)
            var clone = original
            for _ in 0..<3 {
                let options = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
                #expect(
                    try await APIRequests.json(stack, "POST", "/api/auth/passkey", try original.assert(options, origin: stack.serverURL)).status
                        == 200)
            }
            let options = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let cloned = try await APIRequests.json(stack, "POST", "/api/auth/passkey", try clone.assert(options, origin: stack.serverURL))
            #expect(cloned.status == 401 && cloned.error == "counter_regressed")
            let next = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            #expect(try await APIRequests.json(stack, "POST", "/api/auth/passkey", try original.assert(next, origin: stack.serverURL)).status == 200)
        }
    }

    @Test("foreign, unknown, misdirected and stale answers are refused with their codes")
    func hostileAnswers() async throws {
        let clock = TestClock()
        try await JuiceStack.with(database: .sqlite, clock: clock) { stack in
            let token = try await Self.signUp(stack, "careful-owner")
            let otherToken = try await Self.signUp(stack, "other-owner")
            var authenticator = try await Self.register(stack, token: token)

            let anonymous = try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options")
            #expect(anonymous.status == 401 && anonymous.error == "unauthorized")

            // A registration begun by one account cannot be finished by another's session.
            let begun = try Self.options(try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token))
            var stranger = TestAuthenticator(rpID: Self.rpID(stack))
            let crossed = try await APIRequests.json(
                stack, "POST", "/api/passkeys/registration", stranger.register(begun, origin: stack.serverURL), bearer: otherToken)
            #expect(crossed.status == 400 && crossed.error == "challenge_unknown")

            // The same credential id twice is refused.
            var copy = authenticator
            let again = try Self.options(try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: otherToken))
            let duplicate = try await APIRequests.json(
                stack, "POST", "/api/passkeys/registration", copy.register(again, origin: stack.serverURL), bearer: otherToken)
            #expect(duplicate.status == 409 && duplicate.error == "credential_exists")

            // A registration challenge is not a sign-in challenge.
            let registrationOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token))
            let misused = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try authenticator.assert(registrationOptions, origin: stack.serverURL))
            #expect(misused.status == 400 && misused.error == "challenge_unknown")

            // A sign-in challenge is minted (random, expiry, tag) under a key of its own: a native nonce,
            // minted the same way for another purpose, is not one, nor is a genuine challenge altered.
            let nonce = try #require(try await APIRequests.json(stack, "POST", "/api/auth/nonce").json?["nonce"] as? String)
            let crossPurpose = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try authenticator.assert(["challenge": nonce], origin: stack.serverURL))
            #expect(crossPurpose.status == 400 && crossPurpose.error == "challenge_unknown")
            let genuine = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            var altered = try #require(Base64URL.decode(genuine["challenge"] as? String ?? ""))
            altered[0] ^= 0x01
            let tampered = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try authenticator.assert(["challenge": Base64URL.encode(altered)], origin: stack.serverURL))
            #expect(tampered.status == 400 && tampered.error == "challenge_unknown")

            // A passkey the server never registered.
            var unknown = TestAuthenticator(rpID: Self.rpID(stack))
            let unknownOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let foreign = try await APIRequests.json(stack, "POST", "/api/auth/passkey", try unknown.assert(unknownOptions, origin: stack.serverURL))
            #expect(foreign.status == 401 && foreign.error == "unknown_credential")

            // Another site's origin, and another RP ID.
            let phishingOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let phished = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try authenticator.assert(phishingOptions, origin: "https://juice.example.net"))
            #expect(phished.status == 400 && phished.error == "origin_mismatch")
            var elsewhere = authenticator
            elsewhere.rpID = "example.net"
            let otherRPOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let otherRP = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try elsewhere.assert(otherRPOptions, origin: stack.serverURL))
            #expect(otherRP.status == 400 && otherRP.error == "rp_id_mismatch")

            // Without user presence.
            let absentOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let absent = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try authenticator.assert(absentOptions, origin: stack.serverURL, flags: 0x04))
            #expect(absent.status == 400 && absent.error == "user_presence_missing")

            // A challenge past its lifetime (the configuration's authorization lifetime, 600 s).
            let staleOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            clock.advance(by: 601)
            let stale = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey", try authenticator.assert(staleOptions, origin: stack.serverURL))
            #expect(stale.status == 400 && stale.error == "challenge_expired")

            // Bodies that are not a credential.
            let notBase64 = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey",
                ["id": "not base64!", "type": "public-key", "response": ["clientDataJSON": "", "authenticatorData": "", "signature": ""]])
            #expect(notBase64.status == 400 && notBase64.error == "invalid_request")
            let garbage = try await APIRequests.json(
                stack, "POST", "/api/auth/passkey",
                ["id": "AAAA", "type": "public-key", "response": ["clientDataJSON": "AAAA", "authenticatorData": "", "signature": ""]])
            #expect(garbage.status == 400 && garbage.error == "malformed_client_data")

            // After all that, the real passkey still signs in.
            let goodOptions = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            #expect(
                try await APIRequests.json(stack, "POST", "/api/auth/passkey", try authenticator.assert(goodOptions, origin: stack.serverURL)).status
                    == 200)
        }
    }

    @Test("a passkey is renamed and removed by its owner only; a removed passkey no longer signs in; the last sign-in method stays")
    func renameAndRemove() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let token = try await Self.signUp(stack, "tidy-owner")
            let otherToken = try await Self.signUp(stack, "nosy-neighbour")
            var authenticator = try await Self.register(stack, token: token)
            let spare = try await Self.register(stack, token: token)
            let id = Base64URL.encode(authenticator.credentialID)

            let renamed = try await APIRequests.json(stack, "PATCH", "/api/passkeys/\(id)", ["name": " Work laptop "], bearer: token)
            #expect(renamed.status == 200 && renamed.json?["name"] as? String == "Work laptop")
            let empty = try await APIRequests.json(stack, "PATCH", "/api/passkeys/\(id)", ["name": "   "], bearer: token)
            #expect(empty.status == 400 && empty.error == "invalid_request")
            let foreignRename = try await APIRequests.json(stack, "PATCH", "/api/passkeys/\(id)", ["name": "Mine now"], bearer: otherToken)
            #expect(foreignRename.status == 404 && foreignRename.error == "not_found")
            let foreignRemove = try await APIRequests.json(stack, "DELETE", "/api/passkeys/\(id)", bearer: otherToken)
            #expect(foreignRemove.status == 404)
            #expect(try await APIRequests.json(stack, "DELETE", "/api/passkeys/not*base64", bearer: token).status == 404)

            #expect(try await APIRequests.json(stack, "DELETE", "/api/passkeys/\(id)", bearer: token).status == 204)
            #expect(try await APIRequests.json(stack, "DELETE", "/api/passkeys/\(id)", bearer: token).status == 404, "gone")
            let options = try Self.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
            let removed = try await APIRequests.json(stack, "POST", "/api/auth/passkey", try authenticator.assert(options, origin: stack.serverURL))
            #expect(removed.status == 401 && removed.error == "unknown_credential")

            // Without its password, the account's one passkey is its only way in: it stays.
            try await stack.withDatabase { database in
                try await database.autocommit { sql in
                    try await sql.raw("DELETE FROM password_credentials WHERE account_id = (SELECT id FROM accounts WHERE username = 'tidy-owner')")
                        .run()
                }
            }
            let last = try await APIRequests.json(stack, "DELETE", "/api/passkeys/\(Base64URL.encode(spare.credentialID))", bearer: token)
            #expect(last.status == 409 && last.error == "last_sign_in_method")
        }
    }
}

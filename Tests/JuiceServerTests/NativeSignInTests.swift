import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Native Sign in with Apple (POST /api/auth/nonce, /api/auth/apple) against the emulator's device credentials")
struct NativeSignInTests {
    @Test("a device credential signs in: {token, account}, the name from fullName, the refresh token stored for the bundle id")
    func signIn() async throws {
        try await JuiceStack.with { stack in
            let (token, account, credential) = try await NativeFlow.signIn(stack)
            #expect(credential.givenName == "Johnny", "the first authorization carries fullName")
            #expect(account["user"] as? String == credential.user)
            #expect((account["name"] as? [String: Any])?["givenName"] as? String == "Johnny")
            #expect((account["name"] as? [String: Any])?["familyName"] as? String == "Appleseed")
            #expect(account["email"] as? String == "appleseed@juice.test")
            #expect(account["realUserStatus"] as? String == "likelyReal")
            let me = try await AppleFlow.me(stack, token: token)
            #expect(me.status == 200)
            #expect(me.json?["user"] as? String == credential.user)
            let row = try await stack.withDatabase { database in
                try await database.read { sql in
                    try await sql.select().columns("client_id", "refresh_token", "last_checked_at").from("apple_identities").first()
                }
            }
            #expect(try row?.decode(column: "client_id", as: String.self) == StackEnvironment.bundleID)
            #expect(try row?.decode(column: "refresh_token", as: String?.self) != nil, "the code was exchanged and its refresh token sealed")
            let state = try await Browser().get(stack.serverURL + "/api/credential-state", headers: [("Authorization", "Bearer \(token)")])
            #expect(state.json?["state"] as? String == "authorized")
            let metrics = try await Browser().get(stack.serverURL + "/metrics").body
            #expect(metrics.contains(#"juice_sign_ins_total{method="apple",outcome="success"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"juice_apple_request_duration_seconds_count{endpoint="token",outcome="ok"} 1"#))
        }
    }

    @Test("the nonce is single use: replaying the same credential and nonce is refused, and no session is made")
    func replay() async throws {
        try await JuiceStack.with { stack in
            let nonce = try await NativeFlow.nonce(stack)
            let credential = try await NativeFlow.deviceCredential(stack, nonce: nonce)
            let first = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce))
            #expect(first.status == 200)
            let replay = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce))
            #expect(replay.status == 400)
            #expect(replay.error == "invalid_nonce")
            #expect(replay.json?["token"] == nil)
            let withoutCode = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce, withCode: false))
            #expect(withoutCode.error == "invalid_request", "the code is required")
            let sessions = try await stack.withDatabase { database in
                try await database.read { sql in try await sql.select().column("id").from("sessions").all().count }
            }
            #expect(sessions == 1)
        }
    }

    @Test("concurrent deliveries of one credential: the database lets exactly one of them sign in")
    func concurrentReplay() async throws {
        try await JuiceStack.with { stack in
            let nonce = try await NativeFlow.nonce(stack)
            let credential = try await NativeFlow.deviceCredential(stack, nonce: nonce)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce)).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 400 }.count == 5)
        }
    }

    @Test("refused: a nonce never issued, an expired nonce, a token for another nonce, a token for another app, a forged signature")
    func refusals() async throws {
        let clock = TestClock()
        try await JuiceStack.with(clock: clock) { stack in
            // Never issued: the token is genuine, the nonce is not the server's.
            let invented = "not-a-server-nonce"
            let forInvented = try await NativeFlow.deviceCredential(stack, nonce: invented)
            #expect(try await NativeFlow.post(stack, NativeFlow.body(forInvented, nonce: invented)).error == "invalid_nonce")

            // Expired after ten minutes.
            let old = try await NativeFlow.nonce(stack)
            let forOld = try await NativeFlow.deviceCredential(stack, nonce: old)
            clock.advance(by: 601)
            #expect(try await NativeFlow.post(stack, NativeFlow.body(forOld, nonce: old)).error == "invalid_nonce")

            // A token minted for another nonce.
            let issued = try await NativeFlow.nonce(stack)
            let other = try await NativeFlow.nonce(stack)
            let forOther = try await NativeFlow.deviceCredential(stack, nonce: other)
            let mismatch = try await NativeFlow.post(stack, NativeFlow.body(forOther, nonce: issued))
            #expect(mismatch.status == 400)
            #expect(mismatch.error == "invalid_identity_token")
            let mismatchReason = mismatch.json?["reason"] as? String ?? ""
            #expect(mismatchReason.contains("nonce_mismatch"))

            // A token for another app (its audience is not one of this server's client ids).
            let nonce = try await NativeFlow.nonce(stack)
            let foreign = try await NativeFlow.deviceCredential(stack, nonce: nonce, clientID: StackEnvironment.otherBundleID)
            let wrongAudience = try await NativeFlow.post(stack, NativeFlow.body(foreign, nonce: nonce))
            #expect(wrongAudience.status == 400)
            #expect(wrongAudience.error == "invalid_identity_token")
            let wrongAudienceReason = wrongAudience.json?["reason"] as? String ?? ""
            #expect(wrongAudienceReason.contains("wrong_audience"))

            // A forged signature.
            let forgedNonce = try await NativeFlow.nonce(stack)
            let genuine = try await NativeFlow.deviceCredential(stack, nonce: forgedNonce)
            var forged = genuine
            forged.identityToken = String(forged.identityToken.dropLast(4)) + (forged.identityToken.hasSuffix("AAAA") ? "BBBB" : "AAAA")
            let badSignature = try await NativeFlow.post(stack, NativeFlow.body(forged, nonce: forgedNonce))
            #expect(badSignature.error == "invalid_identity_token")
            let badSignatureReason = badSignature.json?["reason"] as? String ?? ""
            #expect(badSignatureReason.contains("bad_signature"))
            let afterRefusal = try await NativeFlow.post(stack, NativeFlow.body(genuine, nonce: forgedNonce))
            #expect(afterRefusal.error == "invalid_nonce", "a nonce is spent even when the token it came with was refused")

            let accounts = try await stack.withDatabase { database in
                try await database.read { sql in try await sql.select().column("id").from("accounts").all().count }
            }
            #expect(accounts == 0, "no refused sign-in created an account")
        }
    }

    @Test("a refused attempt spends its nonce but not the code: the genuine credential still signs in afterwards")
    func refusalKeepsTheCode() async throws {
        try await JuiceStack.with { stack in
            let wrongNonce = try await NativeFlow.nonce(stack)
            let nonce = try await NativeFlow.nonce(stack)
            let credential = try await NativeFlow.deviceCredential(stack, nonce: nonce)
            // Someone holding the device's code and token sends them with a nonce of their own.
            let hostile = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: wrongNonce))
            #expect(hostile.error == "invalid_identity_token")
            #expect(try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: wrongNonce)).error == "invalid_nonce")
            let genuine = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce))
            #expect(genuine.status == 200, "the code was not spent by the refused attempt")
        }
    }

    @Test("the name from fullName is kept once: a later sign-in sending another name changes nothing")
    func nameKeptOnce() async throws {
        try await JuiceStack.with { stack in
            let (_, first, _) = try await NativeFlow.signIn(stack)
            let nonce = try await NativeFlow.nonce(stack)
            var credential = try await NativeFlow.deviceCredential(stack, nonce: nonce)
            #expect(credential.givenName == nil, "Apple sends the name on the first authorization only")
            credential.givenName = "Mallory"
            credential.familyName = "Intruder"
            let second = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce))
            #expect(second.status == 200)
            let account = try #require(second.json?["account"] as? [String: Any])
            #expect(account["id"] as? String == first["id"] as? String)
            #expect((account["name"] as? [String: Any])?["givenName"] as? String == "Johnny")
            #expect((account["name"] as? [String: Any])?["familyName"] as? String == "Appleseed")
        }
    }

    @Test("signing in with Apple with a password account's bearer token links the Apple ID to it")
    func linking() async throws {
        try await JuiceStack.with { stack in
            let signUp = try await APIRequests.json(stack, "POST", "/api/accounts", ["username": "linker", "password": "orange-juice-1"])
            #expect(signUp.status == 201)
            let passwordToken = try #require(signUp.json?["token"] as? String)
            let accountID = try #require((signUp.json?["account"] as? [String: Any])?["id"] as? String)
            let nonce = try await NativeFlow.nonce(stack)
            let credential = try await NativeFlow.deviceCredential(stack, nonce: nonce)
            let linked = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce), bearer: passwordToken)
            #expect(linked.status == 200)
            let account = try #require(linked.json?["account"] as? [String: Any])
            #expect(account["id"] as? String == accountID)
            #expect(account["username"] as? String == "linker")
            #expect(account["user"] as? String == credential.user)
            #expect(try await AppleFlow.me(stack, token: passwordToken).status == 401, "the password session was replaced")
        }
    }
}

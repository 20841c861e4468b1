import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Signed but hostile: tokens and notifications signed by Apple's (the emulator's) key with out-of-range numbers")
struct SignedHostileInputTests {
    static func notification(_ stack: JuiceStack, subject: String, eventTime: String, iat: EmulatorMint.Value? = nil) async throws -> String {
        let now = Int(stack.clock.now.timeIntervalSince1970)
        let events = #"{"type":"consent-revoked","sub":"\#(subject)","event_time":\#(eventTime)}"#
        let payload = try await EmulatorMint.sign(
            stack,
            [
                "iss": .string(stack.emulatorURL), "aud": .string(StackEnvironment.bundleID), "iat": iat ?? .integer(now),
                "exp": .integer(now + 300), "jti": .string(UUID().uuidString), "events": .string(events),
            ])
        return #"{"payload":"\#(payload)"}"#
    }

    @Test("a notification with event_time 1e22, -1e300, \"1e300\" or an array is refused with 400; the server lives and records nothing")
    func hostileEventTime() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let (token, _, credential) = try await NativeFlow.signIn(stack)
            var bodies: [String] = []
            for eventTime in ["1e22", "-1e300", #""1e300""#, "[1]", "9223372036854775808", "-9223372036854775809", "1e309", "{}"] {
                bodies.append(try await Self.notification(stack, subject: credential.user, eventTime: eventTime))
            }
            for iat: EmulatorMint.Value in [.number(1e22), .number(-1e300), .string("1e300"), .array([.integer(1)])] {
                bodies.append(try await Self.notification(stack, subject: credential.user, eventTime: "1700000000000", iat: iat))
            }
            for body in bodies {
                let answer = try await APIRequests.raw(stack, "/apple/notifications", contentType: "application/json", body: body)
                #expect(answer.status == 400, "\(answer.body.prefix(200))")
                #expect(answer.error != nil)
                #expect(try await Browser().get(stack.serverURL + "/health").status == 200, "the server still answers")
            }
            let seen = try await stack.withDatabase { database in
                try await database.read { sql in try await sql.select().column("jti").from("notifications_seen").all().count }
            }
            #expect(seen == 0, "nothing recorded")
            #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "authorized")
            #expect(try await AppleFlow.me(stack, token: token).status == 200, "no session ended")

            // The same notification with a sane event_time is applied: the refusals were about the numbers.
            let sane = try await Self.notification(
                stack, subject: credential.user, eventTime: String(Int64(stack.clock.now.timeIntervalSince1970 * 1000)))
            #expect(try await APIRequests.raw(stack, "/apple/notifications", contentType: "application/json", body: sane).status == 200)
            #expect(try await NativeFlow.credentialState(stack, user: credential.user) == "revoked")
        }
    }

    @Test("identity tokens with out-of-range exp, iat, nbf, auth_time or real_user_status are refused at the native API; nothing is created")
    func hostileIdentityTokenNumbers() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let spoilers: [(String, EmulatorMint.Value)] = [
                ("exp", .number(1e22)), ("exp", .number(-1e300)), ("exp", .string("1e300")), ("exp", .array([.integer(1)])),
                ("iat", .number(1e22)), ("iat", .number(-1e300)), ("iat", .string("1e300")), ("nbf", .number(1e22)),
                ("nbf", .number(-1e300)), ("auth_time", .number(1e22)), ("auth_time", .array([])), ("real_user_status", .number(1e22)),
                ("real_user_status", .number(-1e300)), ("real_user_status", .string("1e300")), ("real_user_status", .integer(Int.max)),
            ]
            for (claim, value) in spoilers {
                var claims = EmulatorMint.identityClaims(stack, audience: StackEnvironment.bundleID, subject: "001111.hostile.0001")
                let nonce = try await NativeFlow.nonce(stack)
                claims["nonce"] = .string(NativeFlow.sha256Hex(nonce))
                claims[claim] = value
                let token = try await EmulatorMint.sign(stack, claims)
                // The code is required, but never reached: the token is refused first.
                let answer = try await NativeFlow.post(stack, ["identityToken": token, "authorizationCode": "c.hostile.0001", "nonce": nonce])
                #expect((400..<500).contains(answer.status), "\(claim) = \(value): \(answer.status) \(answer.body.prefix(200))")
                #expect(answer.error == "invalid_identity_token", "\(claim): \(answer.body.prefix(200))")
            }
            #expect(try await NativeFlow.credentialState(stack, user: "001111.hostile.0001") == "notFound")
            #expect(try await Browser().get(stack.serverURL + "/health").status == 200)
        }
    }

    static func nonceless(_ stack: JuiceStack, nonceSupported: EmulatorMint.Value) async throws -> HTTPResult {
        var claims = EmulatorMint.identityClaims(stack, audience: StackEnvironment.bundleID, subject: "002222.nonceless.0002")
        claims["nonce_supported"] = nonceSupported
        // A minted token has no real code: one the token passes (its c_hash matches) is then refused at Apple (invalid_code).
        let code = "c.nonceless.0002"
        claims["c_hash"] = .string(
            Data(SHA256.hash(data: Data(code.utf8)).prefix(16)).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
        let token = try await EmulatorMint.sign(stack, claims)
        return try await NativeFlow.post(stack, ["identityToken": token, "authorizationCode": code, "nonce": try await NativeFlow.nonce(stack)])
    }

    @Test("native API: a token without nonce and nonce_supported false follows Apple's rule by default, and is refused with require_nonce")
    func requireNonce() async throws {
        try await StackEnvironment.with(.sqlite) { made in
            try await JuiceStack.with(environment: made) { stack in
                let excused = try await Self.nonceless(stack, nonceSupported: .bool(false))
                #expect(
                    excused.error == "invalid_code", "Apple's documented rule: the token passes; only its invented code is refused: \(excused.body)")
                let capable = try await Self.nonceless(stack, nonceSupported: .bool(true))
                #expect(capable.status == 400, "the platform supports nonces")
            }
            var strict = made
            strict.requireNonce = true
            try await JuiceStack.with(environment: strict) { stack in
                for excuse: EmulatorMint.Value in [.bool(false), .string("false")] {
                    let answer = try await Self.nonceless(stack, nonceSupported: excuse)
                    #expect(answer.status == 400, "\(excuse)")
                    #expect(answer.error == "invalid_identity_token")
                }
                // A token that carries the nonce still signs in.
                let (token, _, _) = try await NativeFlow.signIn(stack)
                #expect(try await AppleFlow.me(stack, token: token).status == 200)
            }
        }
    }
}

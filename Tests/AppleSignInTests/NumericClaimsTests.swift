import Foundation
import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Numeric claims: signed but out-of-range times and statuses are refused, never trapped on")
struct NumericClaimsTests {
    let time = ManualTime()

    static let hostile: [JSONValue] = [
        .number(1e22), .number(-1e300), .string("1e300"), .array([.integer(1)]), .integer(Int64.max), .integer(Int64.min), .integer(-1),
        .number(253_402_300_800), .object([:]), .bool(true), .null,
    ]

    @Test("exp, iat, nbf and auth_time outside 1970…9999 (or not numbers) make an identity token malformed")
    func identityTokenTimes() async throws {
        let verifier = IdentityTokenVerifier(
            keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], time: time.source)
        for claim in NumericClaimsRule.timeClaims {
            for value in Self.hostile {
                var claims = TokenForge.appleClaims()
                claims[claim.name] = value
                let token = TokenForge.rs256(claims)
                await #expect(throws: TokenVerificationError(.malformed, ""), "\(claim.name) = \(value)") {
                    try await verifier.verify(token, nonceClaim: TokenForge.nonce)
                }
            }
        }
        var fine = TokenForge.appleClaims()
        fine["nbf"] = .integer(Int64(TokenForge.now.timeIntervalSince1970) - 10)
        fine["real_user_status"] = .integer(2)
        #expect(try await verifier.verify(TokenForge.rs256(fine), nonceClaim: TokenForge.nonce).realUserStatus == .likelyReal)
    }

    @Test("real_user_status must be 0, 1 or 2")
    func realUserStatus() async throws {
        let verifier = IdentityTokenVerifier(
            keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], time: time.source)
        for value in Self.hostile + [.integer(3), .number(1.5), .string("two")] {
            var claims = TokenForge.appleClaims()
            claims["real_user_status"] = value
            let token = TokenForge.rs256(claims)
            await #expect(throws: TokenVerificationError(.malformed, ""), "real_user_status = \(value)") {
                try await verifier.verify(token, nonceClaim: TokenForge.nonce)
            }
        }
        for (value, status) in [(JSONValue.integer(0), RealUserStatus.unsupported), (.integer(1), .unknown), (.number(2), .likelyReal)] {
            var claims = TokenForge.appleClaims()
            claims["real_user_status"] = value
            #expect(try await verifier.verify(TokenForge.rs256(claims), nonceClaim: TokenForge.nonce).realUserStatus == status)
        }
    }

    @Test("a notification's iat and exp outside 1970…9999 make it malformed")
    func notificationTimes() async throws {
        let verifier = ServerNotificationVerifier(
            keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], time: time.source)
        let now = Int64(TokenForge.now.timeIntervalSince1970)
        for claim in ["iat", "exp"] {
            for value in Self.hostile {
                var claims: [String: JSONValue] = [
                    "iss": .string(TokenForge.issuer), "aud": .string(TokenForge.audience), "iat": .integer(now), "exp": .integer(now + 300),
                    "jti": .string("jti-\(claim)"),
                    "events": .string(#"{"type":"consent-revoked","sub":"001872.a","event_time":1790000000000}"#),
                ]
                claims[claim] = value
                let body = Array(JSONValue.object(["payload": .string(TokenForge.rs256(claims))]).jsonString().utf8)
                await #expect(throws: TokenVerificationError(.malformed, ""), "\(claim) = \(value)") {
                    try await verifier.verify(body: body)
                }
            }
        }
    }
}

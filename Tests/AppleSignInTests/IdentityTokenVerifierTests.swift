import CryptoExtras
import Foundation
import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Identity token verification refuses every forgery and stale token")
struct IdentityTokenVerifierTests {
    let time = ManualTime()
    let claims = TokenForge.appleClaims()

    func verifier(audiences: [String] = [TokenForge.audience, "com.example.apple-samplecode.juice.web"]) throws -> IdentityTokenVerifier {
        IdentityTokenVerifier(keys: try TestKeys.staticKeySet(time: time.source), audiences: audiences, time: time.source)
    }

    func expectRefusal(
        _ code: TokenVerificationError.Code,
        _ token: String,
        nonce: String? = nil,
        authorizationCode: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let verifier = try verifier()
        do {
            let accepted = try await verifier.verify(token, nonceClaim: nonce, authorizationCode: authorizationCode)
            Issue.record("accepted a token that should be refused with \(code): \(accepted.subject)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error.reason)", sourceLocation: sourceLocation)
            #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
        }
    }

    @Test("a genuine Apple-shaped token verifies with nonce and c_hash, and its claims are typed")
    func genuine() async throws {
        let token = try await verifier().verify(TokenForge.rs256(claims), nonceClaim: TokenForge.nonce, authorizationCode: TokenForge.code)
        #expect(token.subject == "001872.a22fc8cc2d0a4d0bacaf109007e19351.0650")
        #expect(token.email == "x7k2m9q4pd@privaterelay.appleid.com")
        #expect(token.emailVerified == true)
        #expect(token.isPrivateEmail == true)
        #expect(token.isRelayEmail)
        #expect(token.nonceSupported == true)
        #expect(token.authTime == TokenForge.now)
        #expect(token.realUserStatus == nil)
        #expect(token.transferSubject == nil)
        #expect(token.claims["c_hash"] != nil)
        #expect(token.normalizedClaims["email_verified"] == .bool(true))
    }

    @Test(
        "booleans arrive as strings or as JSON booleans",
        arguments: [
            (JSONValue.string("true"), true), (.string("false"), false), (.bool(true), true), (.bool(false), false), (.string("TRUE"), true),
        ])
    func lenientBooleans(value: JSONValue, expected: Bool) async throws {
        var claims = claims
        claims["email_verified"] = value
        claims["is_private_email"] = value
        claims["nonce_supported"] = value
        let token = try await verifier().verify(TokenForge.rs256(claims))
        #expect(token.emailVerified == expected)
        #expect(token.isPrivateEmail == expected)
        #expect(token.nonceSupported == expected)
    }

    @Test("real_user_status and transfer_sub are read when present")
    func optionalClaims() async throws {
        var claims = claims
        claims["real_user_status"] = .integer(2)
        claims["transfer_sub"] = .string("000111.1c3e.0001")
        let token = try await verifier().verify(TokenForge.rs256(claims))
        #expect(token.realUserStatus == .likelyReal)
        #expect(token.transferSubject == "000111.1c3e.0001")
    }

    @Test("a tampered payload fails the signature check")
    func tamperedPayload() async throws {
        var forged = claims
        forged["sub"] = .string("001872.ffffffffffffffffffffffffffffffff.0650")
        try await expectRefusal(.badSignature, TokenForge.tampered(TokenForge.rs256(claims), claims: forged))
    }

    @Test("a signature by another key under Apple's kid is refused")
    func foreignKey() async throws {
        try await expectRefusal(.badSignature, TokenForge.rs256(claims, key: TestKeys.attacker, kid: "A"))
        try await expectRefusal(.badSignature, TokenForge.rs256(claims, key: TestKeys.appleB, kid: "A"))
    }

    @Test("alg none, HS256 keyed with the public key, ES256 and PS256 are refused")
    func algorithmConfusion() async throws {
        try await expectRefusal(.unsupportedAlgorithm, TokenForge.unsigned(claims, alg: "none"))
        try await expectRefusal(.unsupportedAlgorithm, TokenForge.unsigned(claims, alg: "None"))
        try await expectRefusal(.unsupportedAlgorithm, TokenForge.hs256WithPublicKey(claims, publicKey: TestKeys.appleA.publicKey))
        try await expectRefusal(.unsupportedAlgorithm, TokenForge.es256(claims))
        try await expectRefusal(.unsupportedAlgorithm, TokenForge.unsigned(claims, alg: "PS256", signature: Array(repeating: 1, count: 256)))
        try await expectRefusal(.unsupportedAlgorithm, TokenForge.unsigned(claims, alg: "RS512", signature: Array(repeating: 1, count: 256)))
    }

    @Test("an unknown or missing kid is unknown_key")
    func unknownKey() async throws {
        try await expectRefusal(.unknownKey, TokenForge.rs256(claims, kid: "Z"))
        try await expectRefusal(.unknownKey, TokenForge.rs256(claims, kid: nil))
    }

    @Test("a wrong issuer is refused, including look-alikes")
    func wrongIssuer() async throws {
        for issuer in [
            "https://appleid.apple.com.evil.example", "http://appleid.apple.com", "https://appleid.apple.com/", "https://accounts.google.com",
        ] {
            var claims = claims
            claims["iss"] = .string(issuer)
            try await expectRefusal(.wrongIssuer, TokenForge.rs256(claims))
        }
    }

    @Test("audience: every configured client id is accepted; anything else is refused")
    func audiences() async throws {
        var web = claims
        web["aud"] = .string("com.example.apple-samplecode.juice.web")
        #expect(try await verifier().verify(TokenForge.rs256(web)).audience == "com.example.apple-samplecode.juice.web")

        var array = claims
        array["aud"] = .array([.string(TokenForge.audience)])
        #expect(try await verifier().verify(TokenForge.rs256(array)).audience == TokenForge.audience)

        for audience: JSONValue in [
            .string("com.example.other"), .string("com.example.apple-samplecode.JUICE"), .string(""),
            .array([.string(TokenForge.audience), .string("com.example.other")]),
        ] {
            var claims = claims
            claims["aud"] = audience
            try await expectRefusal(.wrongAudience, TokenForge.rs256(claims))
        }
        var missing = claims
        missing["aud"] = nil
        try await expectRefusal(.malformed, TokenForge.rs256(missing))
        var numeric = claims
        numeric["aud"] = .integer(1)
        try await expectRefusal(.malformed, TokenForge.rs256(numeric))
    }

    @Test("an expired token is refused; within 60 s of skew it is accepted")
    func expiry() async throws {
        let expiresAt = TokenForge.now.addingTimeInterval(86_400)
        time.advance(by: 86_400 + 59)
        _ = try await verifier().verify(TokenForge.rs256(claims))
        time.advance(by: 2)
        try await expectRefusal(.expired, TokenForge.rs256(claims))
        #expect(time.now > expiresAt)
    }

    @Test("a clock skew outside 0...60 s is clamped, and NaN is 0: an expired token is never accepted", arguments: [-5, 0, 3600, .infinity, .nan])
    func skewClamped(skew: Double) async throws {
        let verifier = IdentityTokenVerifier(
            keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], clockSkew: skew, time: time.source)
        #expect((0...60).contains(verifier.clockSkew))
        time.advance(by: 86_400 + 61)
        do {
            _ = try await verifier.verify(TokenForge.rs256(claims))
            Issue.record("an expired token was accepted with clock skew \(skew)")
        } catch {
            #expect(error.code == .expired)
        }
    }

    @Test("a token issued in the future (or not yet valid by nbf) is refused beyond the skew")
    func future() async throws {
        var future = claims
        future["iat"] = .integer(Int64(TokenForge.now.timeIntervalSince1970) + 61)
        try await expectRefusal(.notYetValid, TokenForge.rs256(future))
        future["iat"] = .integer(Int64(TokenForge.now.timeIntervalSince1970) + 59)
        _ = try await verifier().verify(TokenForge.rs256(future))
        var notBefore = claims
        notBefore["nbf"] = .integer(Int64(TokenForge.now.timeIntervalSince1970) + 600)
        try await expectRefusal(.notYetValid, TokenForge.rs256(notBefore))
    }

    @Test("missing or non-numeric exp and iat are malformed")
    func lifetimeClaimsRequired() async throws {
        for name in ["exp", "iat"] {
            var missing = claims
            missing[name] = nil
            try await expectRefusal(.malformed, TokenForge.rs256(missing))
            var text = claims
            text[name] = .string("tomorrow")
            try await expectRefusal(.malformed, TokenForge.rs256(text))
        }
    }

    @Test("the nonce must be exactly the expected one")
    func nonceMismatch() async throws {
        try await expectRefusal(.nonceMismatch, TokenForge.rs256(claims), nonce: "another-nonce")
        try await expectRefusal(.nonceMismatch, TokenForge.rs256(claims), nonce: TokenForge.nonce.uppercased())
        try await expectRefusal(.nonceMismatch, TokenForge.rs256(claims), nonce: String(TokenForge.nonce.dropLast()))
    }

    @Test("a token without a nonce is refused when one was expected, unless the platform cannot carry one")
    func missingNonce() async throws {
        var noNonce = claims
        noNonce["nonce"] = nil
        try await expectRefusal(.missingNonce, TokenForge.rs256(noNonce), nonce: TokenForge.nonce)
        noNonce["nonce_supported"] = nil
        try await expectRefusal(.missingNonce, TokenForge.rs256(noNonce), nonce: TokenForge.nonce)
        noNonce["nonce_supported"] = .string("false")
        _ = try await verifier().verify(TokenForge.rs256(noNonce), nonceClaim: TokenForge.nonce)
        // No nonce expected: none checked.
        _ = try await verifier().verify(TokenForge.rs256(claims))
    }

    @Test("where a nonce is required (the web), nonce_supported: false is no excuse for a token without one")
    func requiredNonce() async throws {
        var noNonce = claims
        noNonce["nonce"] = nil
        for excuse: JSONValue in [.bool(false), .string("false"), .string("FALSE")] {
            noNonce["nonce_supported"] = excuse
            let token = TokenForge.rs256(noNonce)
            await #expect(throws: TokenVerificationError(.missingNonce, ""), "nonce_supported \(excuse)") {
                try await verifier().verify(token, nonceClaim: TokenForge.nonce, requiresNonce: true)
            }
        }
        _ = try await verifier().verify(TokenForge.rs256(claims), nonceClaim: TokenForge.nonce, requiresNonce: true)
    }

    @Test("c_hash must match the code that came with the token")
    func codeHash() async throws {
        try await expectRefusal(.codeHashMismatch, TokenForge.rs256(claims), authorizationCode: "another-code")
        var noHash = claims
        noHash["c_hash"] = nil
        try await expectRefusal(.codeHashMismatch, TokenForge.rs256(noHash), authorizationCode: TokenForge.code)
        _ = try await verifier().verify(TokenForge.rs256(noHash))
    }

    @Test("c_hash is base64url of the left half of SHA-256 (OpenID Connect test vector)")
    func codeHashVector() {
        // OpenID Connect Core, Appendix A.4: code "Qcb0Orv1zh30vL1MPRsbm-diHiMwcLyZvn1arpZv-Jxf_11jnpEX3Tgfvk" → c_hash "LDktKdoQak3Pk0cnXxCltA".
        #expect(CodeHashRule.hash(of: "Qcb0Orv1zh30vL1MPRsbm-diHiMwcLyZvn1arpZv-Jxf_11jnpEX3Tgfvk") == "LDktKdoQak3Pk0cnXxCltA")
    }

    @Test(
        "garbage is malformed, never a crash",
        arguments: [
            "", ".", "..", "a.b", "a.b.c.d", "!!!.@@@.###", "e30.e30.", "eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.AAAA",
            "W10.e30.AAAA", "eyJhbGciOiJSUzI1NiIsImFsZyI6IlJTMjU2In0.e30.AAAA", String(repeating: "A", count: 20_000),
        ])
    func garbage(token: String) async throws {
        try await expectRefusal(.malformed, token)
    }

    @Test("a signature of the wrong length is refused without reaching RSA")
    func truncatedSignature() async throws {
        let token = TokenForge.rs256(claims)
        try await expectRefusal(.badSignature, String(token.dropLast(8)))
    }

    @Test("a header with critical extensions is refused")
    func criticalHeader() async throws {
        try await expectRefusal(.malformed, TokenForge.rs256(claims, extraHeader: ["crit": .array([.string("exp")])]))
    }
}

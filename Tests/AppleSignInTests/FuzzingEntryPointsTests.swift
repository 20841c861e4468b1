import Foundation
import JuiceEncodings
import Testing

@_spi(Fuzzing) @testable import AppleSignIn

/// The libFuzzer targets in Fuzz/ reach the claim rules through `FuzzingEntryPoints`: what they find
/// holds for the verifiers only if both run the same rules after the signature.
@Suite("The fuzzing entry points run the verifiers' own rules after the signature")
struct FuzzingEntryPointsTests {
    let time = ManualTime()

    enum Outcome: Equatable {
        case accepted(String)
        case refused(TokenVerificationError.Code)
    }

    @Test("an identity token gives the same claims, or the same refusal, through the entry point as through verify")
    func identityTokenAgrees() async throws {
        let verifier = IdentityTokenVerifier(
            keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], time: time.source
        )
        var downgrade = TokenForge.appleClaims(now: time.now)
        downgrade["nonce"] = nil
        downgrade["nonce_supported"] = .string("false")
        var expired = TokenForge.appleClaims(now: time.now)
        expired["exp"] = .number(-1e300)
        for (claims, requiresNonce) in [(TokenForge.appleClaims(now: time.now), true), (downgrade, true), (downgrade, false), (expired, false)] {
            let token = TokenForge.rs256(claims)
            let viaVerify: Outcome
            do {
                viaVerify = .accepted(try await verifier.verify(token, nonceClaim: TokenForge.nonce, requiresNonce: requiresNonce).subject)
            } catch {
                viaVerify = .refused(error.code)
            }
            let viaEntryPoint: Outcome
            do {
                let accepted = try FuzzingEntryPoints.identityToken(
                    token, verifier: verifier, now: time.now, nonce: TokenForge.nonce, authorizationCode: nil, requiresNonce: requiresNonce
                )
                viaEntryPoint = .accepted(accepted.subject)
            } catch {
                viaEntryPoint = .refused(error.code)
            }
            #expect(viaVerify == viaEntryPoint)
        }
    }

    @Test("a notification signed by Apple's key with an event_time of 1e300 is refused as malformed through both")
    func hostileEventTime() async throws {
        let verifier = ServerNotificationVerifier(
            keys: try TestKeys.staticKeySet(time: time.source), audiences: [TokenForge.audience], time: time.source
        )
        let iat = Int64(time.now.timeIntervalSince1970)
        let claims: [String: JSONValue] = [
            "iss": .string(TokenForge.issuer), "aud": .string(TokenForge.audience), "iat": .integer(iat), "exp": .integer(iat + 300),
            "jti": .string("jti-1"), "events": .string(#"{"type":"consent-revoked","sub":"001.abc.002","event_time":"1e300"}"#),
        ]
        let token = TokenForge.rs256(claims)
        await #expect(throws: TokenVerificationError.malformed("")) { try await verifier.verify(payload: token) }
        #expect(throws: TokenVerificationError.malformed("")) {
            try FuzzingEntryPoints.notification(token, verifier: verifier, now: time.now)
        }
    }
}

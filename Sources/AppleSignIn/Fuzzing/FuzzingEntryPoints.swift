#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Synchronous ways into the token rules for the libFuzzer targets in `Fuzz/` (not API: reachable only
/// through `@_spi(Fuzzing) import AppleSignIn`).
///
/// A fuzzer cannot forge Apple's RSA signature, so through the public verifiers every mutated token
/// stops at the signature check. What an attacker who holds a validly signed token controls is
/// everything after it: these entry points parse a compact JWS exactly as the verifiers do and then
/// run the verifiers' own claim rules and claim decoding as if the signature had verified.
@_spi(Fuzzing) public enum FuzzingEntryPoints {
    /// Parses `token` and applies ``IdentityTokenVerifier``'s rules after the signature, at time `now`.
    public static func identityToken(
        _ token: String, verifier: IdentityTokenVerifier, now: Date, nonce: String?, authorizationCode: String?, requiresNonce: Bool
    ) throws(TokenVerificationError) -> IdentityToken {
        let jws = try CompactJWS(parsing: token)
        return try verifier.checkClaims(of: jws, now: now, nonce: nonce, authorizationCode: authorizationCode, requiresNonce: requiresNonce)
    }

    /// Parses `token` and applies ``ServerNotificationVerifier``'s rules after the signature, at time `now`.
    public static func notification(
        _ token: String, verifier: ServerNotificationVerifier, now: Date
    ) throws(TokenVerificationError) -> ServerNotification {
        let jws = try CompactJWS(parsing: token)
        return try verifier.checkClaims(of: jws, now: now)
    }
}

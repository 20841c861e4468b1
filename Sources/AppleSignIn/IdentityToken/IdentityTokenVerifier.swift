#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Verifies Apple identity tokens.
///
/// Checks, in order: the token's shape, RS256 signature by the Apple key its `kid` names, `iss`,
/// `aud` (one of your client ids), `exp`/`iat`/`nbf` with a small clock skew, the `nonce` you sent,
/// and `c_hash` against the authorization code that came with the token.
///
/// ```swift
/// let keys = AppleKeySet(source: HTTPAppleKeySource(url: "https://appleid.apple.com/auth/keys"))
/// let verifier = IdentityTokenVerifier(keys: keys, audiences: ["com.example.app", "com.example.app.web"])
/// let token = try await verifier.verify(idToken, nonceClaim: storedNonce, authorizationCode: code)
/// print(token.subject, token.email ?? "-")
/// ```
public struct IdentityTokenVerifier: Sendable {
    /// The required issuer.
    public var issuer: String { settings.issuer }
    /// The accepted audiences.
    public var audiences: Set<String> { settings.audiences }
    /// The allowed clock skew, at most 60 seconds.
    public var clockSkew: TimeInterval { settings.clockSkew }

    private let settings: AppleJWTSettings
    private let claimRules: [any TokenRule] = [
        IssuerRule(), AudienceRule(), NumericClaimsRule(), LifetimeRule(), NonceRule(), CodeHashRule(),
    ]

    /// Creates a verifier.
    /// - Parameters:
    ///   - keys: Apple's key set.
    ///   - issuer: The required `iss`; `https://appleid.apple.com` unless you verify an emulator's tokens.
    ///   - audiences: Your client ids (bundle id, Services ID); must not be empty.
    ///   - clockSkew: Allowed clock difference, clamped to 0...60 seconds.
    ///   - time: The clock.
    public init(
        keys: AppleKeySet,
        issuer: String = AppleSignInConfiguration.appleIssuer,
        audiences: some Sequence<String>,
        clockSkew: TimeInterval = 60,
        time: TimeSource = .system
    ) {
        self.settings = AppleJWTSettings(keys: keys, issuer: issuer, audiences: audiences, clockSkew: clockSkew, time: time)
        precondition(!settings.audiences.isEmpty, "IdentityTokenVerifier needs at least one accepted audience")
    }

    /// Verifies `token` and returns its claims.
    /// - Parameters:
    ///   - token: The compact JWS (`id_token`, or `identityToken` from a device).
    ///   - nonceClaim: What the token's `nonce` claim must be: the exact nonce the authorization request
    ///     carried — on the web the value sent to `/auth/authorize`; for a device sign-in the SHA-256 hex
    ///     of the raw nonce, which is what the app sent to Apple (and not the raw nonce a native API
    ///     receives). `nil` skips the nonce check.
    ///   - authorizationCode: The code that came with the token; when given, `c_hash` must match it.
    ///   - requiresNonce: Refuse a token without a nonce even when it claims `nonce_supported: false`
    ///     (always on the web, which supports nonces; on a native API when the team wants it strict).
    /// - Throws: ``TokenVerificationError`` with a specific code.
    public func verify(
        _ token: String, nonceClaim: String? = nil, authorizationCode: String? = nil, requiresNonce: Bool = false
    ) async throws(TokenVerificationError) -> IdentityToken {
        let jws = try await settings.signature.verify(token)
        return try checkClaims(
            of: jws, now: settings.time.now, nonce: nonceClaim, authorizationCode: authorizationCode, requiresNonce: requiresNonce
        )
    }

    /// Every rule after the signature (issuer, audience, lifetime, nonce, `c_hash`), then the typed claims.
    func checkClaims(
        of jws: CompactJWS, now: Date, nonce: String?, authorizationCode: String?, requiresNonce: Bool
    ) throws(TokenVerificationError) -> IdentityToken {
        let expectations = settings.expectations(now: now, nonce: nonce, authorizationCode: authorizationCode, requiresNonce: requiresNonce)
        try AppleJWTSettings.check(jws.claims, by: claimRules, against: expectations)
        return try IdentityToken(verifiedClaims: jws.claims)
    }
}

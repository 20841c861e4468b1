import Foundation

/// Verifies Apple identity tokens.
///
/// Checks, in order: the token's shape, RS256 signature by the Apple key its `kid` names, `iss`,
/// `aud` (one of your client ids), `exp`/`iat`/`nbf` with a small clock skew, the `nonce` you sent,
/// and `c_hash` against the authorization code that came with the token.
///
/// ```swift
/// let keys = AppleKeySet(source: HTTPAppleKeySource(url: "https://appleid.apple.com/auth/keys"))
/// let verifier = IdentityTokenVerifier(keys: keys, audiences: ["com.example.app", "com.example.app.web"])
/// let token = try await verifier.verify(idToken, nonce: storedNonce, authorizationCode: code)
/// print(token.subject, token.email ?? "-")
/// ```
public struct IdentityTokenVerifier: Sendable {
    /// The required issuer.
    public let issuer: String
    /// The accepted audiences.
    public let audiences: Set<String>
    /// The allowed clock skew, at most 60 seconds.
    public let clockSkew: TimeInterval

    private let signature: RS256SignatureCheck
    private let time: TimeSource
    private let policies: [any TokenPolicy] = [
        IssuerPolicy(), AudiencePolicy(), NumericClaimsPolicy(), LifetimePolicy(), NoncePolicy(), CodeHashPolicy(),
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
        self.signature = RS256SignatureCheck(keys: keys)
        self.issuer = issuer
        self.audiences = Set(audiences)
        self.clockSkew = min(max(clockSkew, 0), 60)
        self.time = time
        precondition(!self.audiences.isEmpty, "IdentityTokenVerifier needs at least one accepted audience")
    }

    /// Verifies `token` and returns its claims.
    /// - Parameters:
    ///   - token: The compact JWS (`id_token`, or `identityToken` from a device).
    ///   - nonce: The exact nonce the authorization request carried (for a device sign-in, the SHA-256
    ///     hex the app sent to Apple). `nil` skips the nonce check.
    ///   - authorizationCode: The code that came with the token; when given, `c_hash` must match it.
    ///   - requiresNonce: Refuse a token without a nonce even when it claims `nonce_supported: false`
    ///     (always on the web, which supports nonces; on a native API when the team wants it strict).
    /// - Throws: ``TokenVerificationError`` with a specific code.
    public func verify(
        _ token: String, nonce: String? = nil, authorizationCode: String? = nil, requiresNonce: Bool = false
    ) async throws(TokenVerificationError) -> IdentityToken {
        let jws = try await signature.verify(token)
        return try checkClaims(
            of: jws, now: time.now, nonce: nonce, authorizationCode: authorizationCode, requiresNonce: requiresNonce
        )
    }

    /// Every rule after the signature (issuer, audience, lifetime, nonce, `c_hash`), then the typed claims.
    func checkClaims(
        of jws: CompactJWS, now: Date, nonce: String?, authorizationCode: String?, requiresNonce: Bool
    ) throws(TokenVerificationError) -> IdentityToken {
        let expectations = TokenExpectations(
            issuer: issuer,
            audiences: audiences,
            now: now,
            clockSkew: clockSkew,
            nonce: nonce,
            authorizationCode: authorizationCode,
            requiresNonce: requiresNonce
        )
        for policy in policies {
            try policy.check(jws.claims, against: expectations)
        }
        return try IdentityToken(verifiedClaims: jws.claims)
    }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a token is checked against, besides its signature.
struct TokenExpectations: Sendable {
    /// The required `iss`.
    var issuer: String
    /// The accepted `aud` values (client ids: bundle id, Services ID).
    var audiences: Set<String>
    /// The current time.
    var now: Date
    /// Allowed clock difference for `exp`, `iat` and `nbf`.
    var clockSkew: TimeInterval
    /// The nonce the request carried, if any.
    var nonce: String?
    /// The authorization code delivered with the token, if any (checked against `c_hash`).
    var authorizationCode: String?
    /// Whether a token without a nonce is refused even when it says `nonce_supported: false` (the web
    /// always supports nonces, so only a native platform may claim it cannot carry one).
    var requiresNonce: Bool = false
}

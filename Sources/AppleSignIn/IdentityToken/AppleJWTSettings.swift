#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every JWT Apple signs is checked against, whatever it carries (an identity token, a server
/// notification): the RS256 signature by a key in Apple's key set, then claim rules against one
/// issuer, one set of audiences, a clock skew and a clock.
struct AppleJWTSettings: Sendable {
    let signature: RS256SignatureRule
    let issuer: String
    let audiences: Set<String>
    /// Clamped to 0...60 seconds.
    let clockSkew: TimeInterval
    let time: TimeSource

    init(keys: AppleKeySet, issuer: String, audiences: some Sequence<String>, clockSkew: TimeInterval, time: TimeSource) {
        self.signature = RS256SignatureRule(keys: keys)
        self.issuer = issuer
        self.audiences = Set(audiences)
        // NaN (which min/max pass through) becomes 0, the strictest skew.
        self.clockSkew = clockSkew.isNaN ? 0 : min(max(clockSkew, 0), 60)
        self.time = time
    }

    /// What the claims must satisfy at `now`, with the nonce and code a sign-in adds.
    func expectations(now: Date, nonce: String? = nil, authorizationCode: String? = nil, requiresNonce: Bool = false) -> TokenExpectations {
        TokenExpectations(
            issuer: issuer, audiences: audiences, now: now, clockSkew: clockSkew, nonce: nonce, authorizationCode: authorizationCode,
            requiresNonce: requiresNonce
        )
    }

    /// Applies `rules` in order; the first refusal is thrown.
    static func check(_ claims: ClaimSet, by rules: [any TokenRule], against expectations: TokenExpectations) throws(TokenVerificationError) {
        for rule in rules {
            try rule.check(claims, against: expectations)
        }
    }
}

import JuiceEncodings

/// The token's `nonce` must equal the expected nonce; a token that supports nonces must carry one.
struct NonceRule: TokenRule {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let expectedNonce = expected.nonce else { return }
        guard let nonceClaim = claims[.nonce] else {
            // Only a platform that says it cannot carry a nonce is excused from carrying one, and only
            // where the caller allows that excuse (never on the web).
            if !expected.requiresNonce, claims[.nonceSupported]?.lenientBool == false { return }
            throw TokenVerificationError(.missingNonce, "a nonce was expected but the token carries none")
        }
        guard let nonce = nonceClaim.stringValue else { throw .malformed("the \"nonce\" claim is not a string") }
        guard constantTimeEquals(nonce, expectedNonce) else {
            throw TokenVerificationError(.nonceMismatch, "the token's nonce is not the one this request was started with")
        }
    }
}

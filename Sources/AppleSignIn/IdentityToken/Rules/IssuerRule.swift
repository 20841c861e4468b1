import JuiceEncodings

/// `iss` must equal the expected issuer exactly.
struct IssuerRule: TokenRule {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let issuer = claims[.iss]?.stringValue else { throw .malformed("the token has no \"iss\" claim") }
        guard issuer == expected.issuer else {
            throw TokenVerificationError(.wrongIssuer, "the token was issued by \"\(issuer.prefix(200))\", not \"\(expected.issuer)\"")
        }
    }
}

import JuiceEncodings

/// `aud` must be one of the configured client ids (every entry, when it is an array).
struct AudienceRule: TokenRule {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        let value = claims[.aud]
        // Apple's tokens carry one audience as a string: checked without building a list.
        if case .string(let audience)? = value, expected.audiences.contains(audience) { return }
        guard let audiences = IdentityToken.audiences(in: value) else {
            throw .malformed("the token has no \"aud\" claim (a string or an array of strings)")
        }
        for audience in audiences where !expected.audiences.contains(audience) {
            throw TokenVerificationError(
                .wrongAudience,
                "the token is for \"\(audience.prefix(200))\", which is not one of the accepted client ids \(expected.audiences.sorted())"
            )
        }
    }
}

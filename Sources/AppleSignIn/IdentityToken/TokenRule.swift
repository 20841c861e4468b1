/// One rule a token's claims must satisfy; each refusal is a precise ``TokenVerificationError``.
protocol TokenRule: Sendable {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError)
}

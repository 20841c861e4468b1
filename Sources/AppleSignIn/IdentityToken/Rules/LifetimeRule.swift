import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `exp` must be in the future and `iat`/`nbf` not in the future, each within the clock skew.
struct LifetimeRule: TokenRule {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let exp = claims[.exp]?.doubleValue else { throw .malformed("the token has no numeric \"exp\" claim") }
        guard let iat = claims[.iat]?.doubleValue else { throw .malformed("the token has no numeric \"iat\" claim") }
        let now = expected.now.timeIntervalSince1970
        guard now <= exp + expected.clockSkew else {
            throw TokenVerificationError(.expired, "the token expired at \(Self.format(exp)) (now \(Self.format(now)))")
        }
        guard iat <= now + expected.clockSkew else {
            throw TokenVerificationError(.notYetValid, "the token is issued at \(Self.format(iat)), in the future (now \(Self.format(now)))")
        }
        if let notBefore = claims[.nbf] {
            guard let nbf = notBefore.doubleValue else { throw .malformed("the \"nbf\" claim is not a number") }
            guard nbf <= now + expected.clockSkew else {
                throw TokenVerificationError(.notYetValid, "the token is not valid before \(Self.format(nbf)) (now \(Self.format(now)))")
            }
        }
    }

    static func format(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}

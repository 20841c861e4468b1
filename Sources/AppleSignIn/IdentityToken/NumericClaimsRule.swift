import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every time claim (`exp`, `iat`, `nbf`, `auth_time`) that is present must be a JSON number of
/// seconds between 1970 and 9999, and `real_user_status` an integer 0, 1 or 2. A signed but absurd
/// value (`1e22`, `-1e300`, `"1e300"`, an array) is refused here as `malformed`, so nothing past the
/// verifier ever holds a time or a status no integer or date arithmetic can take.
struct NumericClaimsRule: TokenRule {
    /// 9999-12-31T23:59:59Z.
    static let latestTime: Double = 253_402_300_799

    static let timeClaims: [ClaimName] = [.exp, .iat, .nbf, .authTime]

    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        for claim in Self.timeClaims {
            guard let value = claims[claim] else { continue }
            guard let seconds = value.doubleValue, seconds.isFinite, (0...Self.latestTime).contains(seconds) else {
                throw .malformed("the \"\(claim.name)\" claim is not a time between 1970 and 9999 in seconds")
            }
        }
        if let status = claims[.realUserStatus] {
            guard let number = status.integerValue ?? status.stringValue.flatMap({ Int64($0) }), (0...2).contains(number) else {
                throw .malformed("the \"real_user_status\" claim is not 0, 1 or 2")
            }
        }
    }
}

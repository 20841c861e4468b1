import Foundation
import JuiceEncodings

/// The claims of an identity token, read without verifying it, as a device does: the client only needs
/// `sub` and `real_user_status` to build its credential; the server verifies the token.
struct IdentityTokenClaims: Sendable, Hashable {
    /// `sub`: the user identifier.
    let subject: String
    /// `nonce`, when present.
    let nonce: String?
    /// `real_user_status`, when present and valid.
    let realUserStatus: UserDetectionStatus?

    /// Reads the payload of a compact JWS; `nil` when it is not one or has no `sub`.
    init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
            let subject = claims["sub"] as? String, !subject.isEmpty
        else { return nil }
        self.subject = subject
        self.nonce = claims["nonce"] as? String
        let status = (claims["real_user_status"] as? Int) ?? (claims["real_user_status"] as? String).flatMap { Int($0) }
        self.realUserStatus = status.flatMap(UserDetectionStatus.init(rawValue:))
    }
}

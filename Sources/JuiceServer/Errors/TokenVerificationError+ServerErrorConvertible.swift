import AppleSignIn
import Hummingbird

extension ServerError {
    /// A refused identity token: Apple's keys unreachable is 503 `apple_unavailable` (no verdict on
    /// the token), anything else 400 `invalid_identity_token` with the toolkit's code and reason.
    init(_ error: TokenVerificationError) {
        if error.code == .keysUnavailable {
            self.init(.appleUnavailable, status: .serviceUnavailable, "Apple's signing keys cannot be fetched right now; try again shortly")
        } else {
            self.init(.invalidIdentityToken, status: .badRequest, "the identity token was refused (\(error.code)): \(error.reason)")
        }
    }
}

import AppleSignIn
import Hummingbird

extension ServerError {
    /// A failed call to Apple's REST endpoints: Apple's refusal is 400 `invalid_code`, Apple
    /// unreachable 503, an unusable answer 502 (both `apple_unavailable`).
    init(_ error: AppleIDClientError) {
        if error.code == .apple {
            self.init(.invalidCode, status: .badRequest, "Apple refused the authorization code (\(error.appleError ?? "error"))")
        } else if error.isTransient {
            self.init(.appleUnavailable, status: .serviceUnavailable, "Apple cannot be reached right now; try again shortly")
        } else {
            self.init(.appleUnavailable, status: .badGateway, "Apple's answer could not be used (\(error.code))")
        }
    }
}

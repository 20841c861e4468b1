import AppleSignIn
import Hummingbird
import JuiceEncodings

extension ServerError {
    /// A refused notification: 503 `apple_unavailable` when Apple's keys cannot be fetched (deliver again
    /// later), else 400 with the verifier's code, carried as it is.
    init(refusedNotification error: TokenVerificationError) {
        if error.code == .keysUnavailable {
            self.init(.appleUnavailable, status: .serviceUnavailable, "Apple's signing keys cannot be fetched; deliver again later")
        } else {
            self.init(Code(error.code), status: .badRequest, error.reason)
        }
    }
}

import AppleSignIn
import Hummingbird

extension ServerError {
    /// Each refusal of a notification's JWT as the server answers it: the verifier's code of the same name, written out.
    static let notificationCodes: [TokenVerificationError.Code: ServerError.Code] = [
        .malformed: .malformedToken, .unsupportedAlgorithm: .unsupportedAlgorithm, .unknownKey: .unknownKey, .badSignature: .badSignature,
        .wrongIssuer: .wrongIssuer, .wrongAudience: .wrongAudience, .expired: .expired, .notYetValid: .notYetValid,
        .nonceMismatch: .nonceMismatch, .missingNonce: .missingNonce, .codeHashMismatch: .codeHashMismatch,
        .keysUnavailable: .keysUnavailable,
    ]

    /// A refused notification: 503 `apple_unavailable` when Apple's keys cannot be fetched (deliver again
    /// later), else 400 with the verifier's code.
    init(refusedNotification error: TokenVerificationError) {
        if error.code == .keysUnavailable {
            self.init(.appleUnavailable, status: .serviceUnavailable, "Apple's signing keys cannot be fetched; deliver again later")
        } else {
            self.init(Self.notificationCodes[error.code] ?? .invalidNotification, status: .badRequest, error.reason)
        }
    }
}

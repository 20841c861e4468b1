import Hummingbird
import WebAuthn

extension PasskeyError: ServerErrorConvertible {
    /// Each refusal's server code: the WebAuthn code of the same name, written out.
    static let serverCodes: [PasskeyError.Code: ServerError.Code] = [
        .malformedCBOR: .malformedCBOR, .malformedClientData: .malformedClientData, .malformedAuthenticatorData: .malformedAuthenticatorData,
        .malformedPublicKey: .malformedPublicKey, .wrongCeremony: .wrongCeremony, .challengeMismatch: .challengeMismatch,
        .challengeUnknown: .challengeUnknown, .challengeExpired: .challengeExpired, .originMismatch: .originMismatch, .crossOrigin: .crossOrigin,
        .rpIDMismatch: .rpIDMismatch, .userPresenceMissing: .userPresenceMissing, .userVerificationMissing: .userVerificationMissing,
        .backupStateInvalid: .backupStateInvalid, .backupEligibilityChanged: .backupEligibilityChanged, .counterRegressed: .counterRegressed,
        .unknownCredential: .unknownCredential, .credentialExists: .credentialExists, .credentialIDMismatch: .credentialIDMismatch,
        .userHandleMismatch: .userHandleMismatch, .unsupportedAlgorithm: .unsupportedAlgorithm, .badSignature: .badSignature,
        .unsupportedAttestation: .unsupportedAttestation, .badAttestation: .badAttestation,
    ]

    /// The refusal's own code: 409 when the passkey is already registered; 401 when the credential is
    /// unknown or its proof fails (signature, counter, user handle); 400 for everything else.
    var serverError: ServerError {
        let status: HTTPResponse.Status =
            switch code {
            case .credentialExists: .conflict
            case .unknownCredential, .badSignature, .counterRegressed, .userHandleMismatch: .unauthorized
            default: .badRequest
            }
        return ServerError(Self.serverCodes[code] ?? .invalidRequest, status: status, reason)
    }
}

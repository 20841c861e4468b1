import Hummingbird
import JuiceEncodings
import WebAuthn

extension PasskeyError: ServerErrorConvertible {
    /// The refusal's own code: 409 when the passkey is already registered; 401 when the credential is
    /// unknown or its proof fails (signature, counter, user handle); 400 for everything else.
    var serverError: ServerError {
        let status: HTTPResponse.Status =
            switch code {
            case .credentialExists: .conflict
            case .unknownCredential, .badSignature, .counterRegressed, .userHandleMismatch: .unauthorized
            default: .badRequest
            }
        return ServerError(ServerError.Code(code), status: status, reason)
    }
}

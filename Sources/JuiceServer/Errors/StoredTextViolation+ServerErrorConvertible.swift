import Hummingbird
import JuiceEncodings

extension StoredTextViolation: ServerErrorConvertible {
    /// 400 `invalid_text` (a control character) or `text_too_long`, with the rule that failed.
    var serverError: ServerError {
        switch self {
        case .controlCharacter: ServerError(.invalidText, status: .badRequest, "name " + reason)
        case .tooLong: ServerError(.textTooLong, status: .badRequest, "name " + reason)
        }
    }
}

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

extension ServerError.Code {
    /// Stored text (a passkey's name) holds a control character: NUL, tab, a line break, DEL, a C1 control.
    static let invalidText = ServerError.Code(rawValue: "invalid_text")
    /// Stored text is longer than its limit in Unicode scalars or UTF-8 bytes.
    static let textTooLong = ServerError.Code(rawValue: "text_too_long")
}

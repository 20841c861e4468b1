/// Why ``StoredTextRule/check(_:)`` refused a text. Each module turns it into its own answer (the
/// server: 400 `invalid_text` or `text_too_long`; the emulator: `invalid_request` or a configuration
/// problem).
package enum StoredTextViolation: Error, Sendable, Hashable {
    /// The text holds this control character (its scalar value).
    case controlCharacter(UInt32)
    /// The text is longer than the rule's scalars or bytes.
    case tooLong(maximumScalars: Int, maximumBytes: Int)

    /// A sentence for the error's `reason` (it names the character's code point, never the text).
    package var reason: String {
        switch self {
        case .controlCharacter(let value):
            "must not contain control characters (found U+\(String(value, radix: 16, uppercase: true).leftPadded(to: 4)))"
        case .tooLong(let scalars, let bytes):
            "must be at most \(scalars) characters (Unicode scalars) and \(bytes) bytes in UTF-8"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

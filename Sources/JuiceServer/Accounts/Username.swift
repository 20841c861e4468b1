import Foundation

/// Usernames as PRECIS `UsernameCaseMapped` (RFC 8265 §3.3) treats them: one stored spelling per
/// name, whatever form the keyboard produced, and no invisible or direction-changing characters.
enum Username {
    /// Why a chosen username is refused.
    enum Problem: Error, Sendable, Hashable {
        /// Fewer than 3 or more than 64 characters.
        case length
        /// A space or other separator.
        case whitespace
        /// A control, format (bidi overrides and isolates, zero-width joiners), private-use,
        /// surrogate or unassigned code point.
        case invisibleOrUnassigned
    }

    /// The stored form: trimmed, fullwidth forms mapped to their ASCII counterparts (width mapping),
    /// lowercased (case mapping), then NFC. "Zoéuser" typed with a precomposed é and with e + U+0301,
    /// and "ＺＯＥ" and "zoe", are the same name.
    static func normalize(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            switch scalar.value {
            case 0xFF01...0xFF5E: scalars.append(Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar)
            case 0x3000: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        return String(scalars).trimmingWhitespace().lowercased().nfc
    }

    /// The normalized form of a username a person chooses.
    /// - Throws: ``Problem`` when it breaks a rule (checked on the normalized form).
    static func validate(_ raw: String) throws(Problem) -> String {
        let username = normalize(raw)
        guard (3...64).contains(username.count) else { throw .length }
        for scalar in username.unicodeScalars {
            if scalar.properties.isWhitespace { throw .whitespace }
            switch scalar.properties.generalCategory {
            case .control, .format, .privateUse, .surrogate, .unassigned: throw .invisibleOrUnassigned
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: throw .whitespace
            default: continue
            }
        }
        return username
    }
}

extension String {
    /// Unicode Normalization Form C.
    fileprivate var nfc: String { precomposedStringWithCanonicalMapping }

    fileprivate func trimmingWhitespace() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

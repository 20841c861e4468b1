import Foundation

/// Usernames as PRECIS `UsernameCaseMapped` (RFC 8265 §3.3) treats them: one stored spelling per
/// name, whatever form the keyboard produced, and only the code points of the IdentifierClass
/// (``UsernameIdentifierClass``): no invisible, compatibility-form or direction-changing characters, so
/// that `alice` followed by U+034F, or `𝐚𝐥𝐢𝐜𝐞`, is refused instead of becoming a second `alice`.
/// Every path that creates or renames a username goes through ``validate(_:)`` (password sign-up,
/// passkey sign-up, adding a password to an account; the API and the CLI reach these).
enum Username {
    /// Why a chosen username is refused.
    enum Problem: Error, Sendable, Hashable {
        /// Fewer than 3 or more than 64 characters.
        case length
        /// A space or other separator.
        case whitespace
        /// A control, format (bidi overrides and isolates, zero-width joiners), default-ignorable
        /// (U+034F, variation selectors), Hangul filler or old jamo, private-use, noncharacter or
        /// unassigned code point.
        case invisibleOrUnassigned
        /// A compatibility form of another character (`𝐚`, `ⓐ`, the ligature `ﬁ`): NFKC changes it.
        case compatibilityForm
        /// A symbol, punctuation or other character beyond ASCII that the IdentifierClass refuses.
        case symbolOrPunctuation
    }

    /// The stored form: trimmed, fullwidth and halfwidth forms mapped to their ordinary counterparts (width
    /// mapping: U+3000 and U+FF01–U+FFEE, the code points Unicode decomposes as `<wide>` or `<narrow>`),
    /// lowercased (case mapping), then NFC. "Zoéuser" typed with a precomposed é and with e + U+0301,
    /// and "ＺＯＥ" and "zoe", are the same name.
    static func normalize(_ raw: String) -> String {
        var mapped = ""
        for scalar in raw.unicodeScalars {
            if scalar.value == 0x3000 || (0xFF01...0xFFEE).contains(scalar.value) {
                mapped += String(scalar).precomposedStringWithCompatibilityMapping
            } else {
                mapped.unicodeScalars.append(scalar)
            }
        }
        return mapped.trimmingWhitespace().lowercased().nfc
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
        switch UsernameIdentifierClass.firstRefusal(in: username)?.refusal {
        case nil: return username
        case .invisible: throw .invisibleOrUnassigned
        case .compatibilityForm: throw .compatibilityForm
        case .symbolOrPunctuation: throw .symbolOrPunctuation
        }
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

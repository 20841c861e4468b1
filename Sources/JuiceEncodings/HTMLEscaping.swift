extension String {
    /// The text escaped for HTML text and for a quoted attribute value, one Unicode scalar at a time.
    ///
    /// `& < > " '` become character references; a control character (C0 but tab, line feed, form feed and
    /// carriage return; DEL; C1) or a noncharacter (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF), which HTML parses as
    /// an error, becomes U+FFFD. Everything else is kept as it is.
    ///
    /// Scalars, never `Character`s: a quote followed by U+0301 is one `Character` (a grapheme cluster),
    /// and so is `<` after U+0600 (a prepended concatenation mark); neither is equal to `"` or `<`, yet a
    /// browser's tokenizer reads the quote and the `<` alone. swift-mustache's own escaping compares
    /// `Character`s and lets both through, so every page renders through this rule instead
    /// (`PageTemplateLibrary`).
    ///
    /// ```swift
    /// "\"\u{301}>".htmlEscaped   // "&quot;\u{301}&gt;"
    /// ```
    package var htmlEscaped: String {
        replacingScalars { scalar -> String? in
            if let reference = Self.markupReference(scalar) { return reference }
            switch scalar {
            case "\t", "\n", "\u{C}", "\r": return nil
            case _ where Self.isControlOrNoncharacter(scalar): return "\u{FFFD}"
            default: return nil
            }
        }
    }

    /// The character reference of `& < > " '` (the same in HTML and XML), `nil` for any other scalar.
    static func markupReference(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&#39;"
        default: nil
        }
    }

    /// Whether `scalar` is a C0 or C1 control, DEL or a noncharacter.
    static func isControlOrNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.isNoncharacterCodePoint
    }
}

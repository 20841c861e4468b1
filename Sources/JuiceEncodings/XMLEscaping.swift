extension String {
    /// The text escaped for XML 1.0 text and attribute values (the conformance kit's JUnit report), one
    /// Unicode scalar at a time, so that the document stays well-formed whatever the text holds.
    ///
    /// `& < > " '` become character references (as in HTML); tab, line feed and carriage return become `&#9;`,
    /// `&#10;` and `&#13;` (an attribute value keeps them instead of having them normalized to spaces);
    /// a scalar XML 1.0 does not allow (the other C0 controls, U+FFFE, U+FFFF) becomes U+FFFD.
    /// Scalars, never `Character`s: see ``htmlEscaped``.
    ///
    /// ```swift
    /// "a<\u{600}b\u{FFFE}".xmlEscaped   // "a&lt;\u{600}b\u{FFFD}"
    /// ```
    package var xmlEscaped: String {
        replacingScalars { scalar -> String? in
            if let reference = Self.markupReference(scalar) { return reference }
            return switch scalar {
            case "\t": "&#9;"
            case "\n": "&#10;"
            case "\r": "&#13;"
            case _ where !Self.isXMLCharacter(scalar): "\u{FFFD}"
            default: nil
            }
        }
    }

    /// XML 1.0's `Char` production: tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and
    /// U+10000–U+10FFFF (a Swift scalar is never a surrogate).
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

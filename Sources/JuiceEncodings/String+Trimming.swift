extension StringProtocol {
    /// The text without the Unicode scalars at its ends for which `isTrimmed` is true: Foundation's
    /// `trimmingCharacters(in:)` for code that imports only FoundationEssentials (which has no
    /// `CharacterSet` trimming on Linux). Walks scalars, as Foundation does, never `Character`s.
    package func trimming(while isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }), let last = scalars.lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// The text without spaces and tabs at its ends; line breaks stay (Foundation's `.whitespaces`:
    /// the tab, the space separators and, as in Foundation's table, U+200B ZERO WIDTH SPACE).
    package func trimmingHorizontalSpace() -> String {
        trimming { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The text without white space or line breaks at its ends (Foundation's `.whitespacesAndNewlines`,
    /// U+200B included).
    package func trimmingWhitespace() -> String {
        trimming { $0 == "\u{200B}" || $0.properties.isWhitespace }
    }
}

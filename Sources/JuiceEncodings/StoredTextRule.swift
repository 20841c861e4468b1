/// The one rule for free text that Juice and the emulator store and show back: names of passkeys, the
/// given and family names Apple sends, the emulator's Apple ID and consent names, anything a user or a
/// seed sets (issue 40).
///
/// - **No control characters**: C0 (U+0000–U+001F, NUL, tab and line breaks included), DEL and C1
///   (U+007F–U+009F). A NUL cuts text that SQLite reads back with `String(cString:)` (`"ab\0cd"` comes
///   back `"ab"`) and is an error in PostgreSQL text; line breaks and escapes have no place in a name.
/// - **Lengths in Unicode scalars and in UTF-8 bytes**, never in grapheme clusters: `"a"` followed by
///   2000 combining accents is one `Character` but 2001 scalars. JSON Schema's `maxLength` (as in
///   docs/openapi.yaml) counts code points, which for a Swift `String` are its Unicode scalars.
///
/// Where text comes from a person or a seed, ``check(_:)`` refuses it; where it is Apple's own data,
/// which arrives once and must not fail a sign-in, ``sanitized(_:)`` keeps what the rule allows.
///
/// ```swift
/// try StoredTextRule.name.check("Work laptop")          // fine
/// try StoredTextRule.name.check("ab\u{0}cd")            // StoredTextViolation.controlCharacter
/// StoredTextRule.name.sanitized("Jo\u{0}hn")            // "John"
/// ```
package struct StoredTextRule: Sendable, Hashable {
    /// The most Unicode scalars the text may have.
    package let maximumScalars: Int
    /// The most UTF-8 bytes the text may have.
    package let maximumBytes: Int

    /// A rule allowing `maximumScalars` scalars and `maximumBytes` bytes (by default four per scalar,
    /// UTF-8's widest).
    package init(maximumScalars: Int, maximumBytes: Int? = nil) {
        self.maximumScalars = max(0, maximumScalars)
        self.maximumBytes = max(0, maximumBytes ?? maximumScalars * 4)
    }

    /// Names (a passkey's, a person's given or family name): 64 scalars, 256 bytes.
    package static let name = StoredTextRule(maximumScalars: 64, maximumBytes: 256)

    /// An organization's name (a Work & School account's): 128 scalars, 512 bytes.
    package static let organization = StoredTextRule(maximumScalars: 128, maximumBytes: 512)

    /// Whether `scalar` is a C0 control, DEL or a C1 control.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` without the white space at its ends, control characters excepted: a tab, a line break or
    /// U+0085 at an end stays, so ``check(_:)`` refuses it instead of a trim hiding it.
    package static func trimmingSpaces(_ text: String) -> String {
        text.trimming { $0.properties.isWhitespace && !isControl($0) }
    }

    /// Refuses text with a control character (whatever its length).
    package static func checkCharacters(_ text: String) throws(StoredTextViolation) {
        if let control = text.unicodeScalars.first(where: isControl) { throw .controlCharacter(control.value) }
    }

    /// Refuses text with a control character, or longer than the rule allows.
    package func check(_ text: String) throws(StoredTextViolation) {
        try Self.checkCharacters(text)
        guard text.unicodeScalars.count <= maximumScalars, text.utf8.count <= maximumBytes else {
            throw .tooLong(maximumScalars: maximumScalars, maximumBytes: maximumBytes)
        }
    }

    /// `text` without its control characters, cut (between scalars) to the rule's lengths.
    package func sanitized(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var scalars = 0
        var bytes = 0
        for scalar in text.unicodeScalars where !Self.isControl(scalar) {
            let width = UTF8.width(scalar)
            guard scalars < maximumScalars, bytes + width <= maximumBytes else { break }
            kept.append(scalar)
            scalars += 1
            bytes += width
        }
        return String(kept)
    }
}

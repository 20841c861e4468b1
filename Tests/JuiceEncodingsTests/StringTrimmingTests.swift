import Foundation
import Testing

@testable import JuiceEncodings

/// The trimming that replaces Foundation's `trimmingCharacters(in:)` where a module imports only
/// FoundationEssentials: it must trim exactly what Foundation's sets trim.
@Suite("String trimming without Foundation")
struct StringTrimmingTests {
    static let samples = [
        "", " ", "\t a b \t", " a\n", "\n a \r\n", "\u{A0}x\u{3000}", "\u{2028}y\u{85}", "\u{200B}z", " \u{301}a ", "\"5\"", "\"",
        "max-age = 60 ", "a\u{1680}", "\u{2029}p\u{0B}", "\u{205F}q\u{0C}", "\u{202F}r\u{2000}",
    ]

    @Test("horizontal space is Foundation's .whitespaces: a line break at an end stays", arguments: samples)
    func horizontal(text: String) {
        #expect(text.trimmingHorizontalSpace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingHorizontalSpace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("white space is Foundation's .whitespacesAndNewlines", arguments: samples)
    func whitespace(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("a predicate trims scalars, not characters: a quote under a combining mark is not a quote")
    func predicate() {
        #expect("\"5\"".trimming { $0 == "\"" } == "5")
        #expect("\"\u{301}5".trimming { $0 == "\"" } == "\u{301}5")
        #expect("\"\"".trimming { $0 == "\"" }.isEmpty)
    }
}

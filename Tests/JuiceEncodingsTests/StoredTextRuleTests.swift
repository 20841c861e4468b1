import Testing

@testable import JuiceEncodings

/// The one rule for stored free text (issue 40): refusals and what sanitizing keeps.
@Suite("StoredTextRule")
struct StoredTextRuleTests {
    @Test("controls are C0, DEL and C1; lengths are scalars and bytes; sanitizing keeps what the rule allows")
    func rule() throws {
        let rule = StoredTextRule.name
        #expect(throws: StoredTextViolation.controlCharacter(0)) { try rule.check("ab\u{0}cd") }
        #expect(throws: StoredTextViolation.controlCharacter(0x1B)) { try rule.check("\u{1B}[31m") }
        #expect(throws: StoredTextViolation.controlCharacter(0x9F)) { try rule.check("\u{9F}") }
        #expect(throws: StoredTextViolation.tooLong(maximumScalars: 64, maximumBytes: 256)) {
            try rule.check(String(repeating: "a" + String(repeating: "\u{0301}", count: 2000), count: 5))
        }
        try rule.check(String(repeating: "😀", count: 64))
        try rule.check("Zoë Ñúñez 王")
        #expect(rule.sanitized("Jo\u{0}hn") == "John")
        #expect(rule.sanitized(String(repeating: "a" + String(repeating: "\u{0301}", count: 2000), count: 5)).unicodeScalars.count == 64)
        #expect(StoredTextRule(maximumScalars: 10, maximumBytes: 8).sanitized("😀😀😀") == "😀😀")
        #expect(StoredTextViolation.controlCharacter(0).reason.contains("U+0000"))
    }

    @Test("trimming takes spaces off the ends but leaves a tab, a line break or U+0085 there for the check to refuse")
    func trimming() {
        #expect(StoredTextRule.trimmingSpaces("  Work laptop\u{3000}") == "Work laptop")
        #expect(StoredTextRule.trimmingSpaces(" \t ") == "\t")
        #expect(StoredTextRule.trimmingSpaces("c1\u{85}") == "c1\u{85}")
        #expect(StoredTextRule.trimmingSpaces("   ").isEmpty)
        #expect(throws: StoredTextViolation.controlCharacter(0x85)) { try StoredTextRule.checkCharacters(StoredTextRule.trimmingSpaces("c1\u{85}")) }
    }
}

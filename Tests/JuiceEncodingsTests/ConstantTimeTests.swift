import JuiceEncodings
import Testing

@Suite("constantTimeEquals: equal only for the same bytes")
struct ConstantTimeTests {
    @Test(
        "equal strings compare equal; a difference anywhere, in length or in Unicode normalization does not",
        arguments: [
            ("", "", true), ("secret", "secret", true), ("é", "é", true),
            ("secret", "secreT", false), ("secret", "Secret", false), ("secret", "secre", false),
            ("", "x", false), ("e\u{301}", "\u{e9}", false),
        ])
    func compares(lhs: String, rhs: String, equal: Bool) {
        #expect(constantTimeEquals(lhs, rhs) == equal)
        #expect(constantTimeEquals(rhs, lhs) == equal)
    }
}

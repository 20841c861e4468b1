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

    @Test(
        "equal byte strings compare equal; a difference in any byte or in length does not",
        arguments: [
            ([], [], true), ([1, 2, 3], [1, 2, 3], true), ([1, 2, 3], [1, 2, 4], false),
            ([0, 2, 3], [1, 2, 3], false), ([1, 2], [1, 2, 3], false), ([], [0], false),
        ] as [([UInt8], [UInt8], Bool)])
    func comparesBytes(lhs: [UInt8], rhs: [UInt8], equal: Bool) {
        #expect(constantTimeEquals(lhs, rhs) == equal)
        #expect(constantTimeEquals(rhs, lhs) == equal)
    }
}

import Foundation

/// PRECIS IdentifierClass (RFC 8264 §4.2, the code point rules of §8 and §9), the class RFC 8265's
/// UsernameCaseMapped profile builds on: which code points a username may hold once it has been width-mapped,
/// case-mapped and put in NFC (``Username/normalize(_:)``).
///
/// Allowed: printable ASCII, letters and digits (`Ll Lu Lo Lm Nd Mn Mc`) and the exceptions RFC 5892 makes
/// valid (ß, final sigma, …). Refused, so that no second account looks like the first:
/// - **invisible**: default-ignorable code points (U+034F, variation selectors U+FE0F and U+180B, U+200B, …),
///   the Hangul fillers and old jamo (U+115F, U+1160, U+3164), controls, format characters, private use,
///   noncharacters and unassigned code points;
/// - **compatibility forms**: any code point that NFKC changes (`𝐚𝐥𝐢𝐜𝐞`, `ⓐⓛⓘⓒⓔ`, the ligature `ﬁ`, superscripts);
///   fullwidth ASCII never gets here, width mapping has made it ASCII;
/// - **symbols, punctuation and spaces** beyond ASCII, other letter-digits (`Lt Nl No Me`) and the contextual
///   characters (ZWJ, ZWNJ, the middle dot, …), which this rule refuses rather than judge their context.
enum UsernameIdentifierClass {
    /// Why a code point is not in the class.
    enum Refusal: Sendable, Hashable {
        /// Invisible, a filler, a control, private use, a noncharacter or unassigned.
        case invisible
        /// A compatibility form of another character (NFKC changes it).
        case compatibilityForm
        /// A non-ASCII symbol, punctuation or space, another kind of letter-digit, or a contextual character.
        case symbolOrPunctuation
    }

    /// Why `scalar` is refused, or `nil` when the class allows it.
    static func refusal(_ scalar: Unicode.Scalar) -> Refusal? {
        let value = scalar.value
        if let exception = exceptions[value] { return exception }
        let properties = scalar.properties
        guard properties.age != nil else { return .invisible }  // unassigned
        if (0x21...0x7E).contains(value) { return nil }  // ASCII7
        if properties.isJoinControl { return .symbolOrPunctuation }  // CONTEXTJ
        if isOldHangulJamo(value) || properties.isDefaultIgnorableCodePoint || properties.isNoncharacterCodePoint { return .invisible }
        switch properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned: return .invisible
        default: break
        }
        if hasCompatibilityMapping(scalar) { return .compatibilityForm }
        switch properties.generalCategory {
        case .lowercaseLetter, .uppercaseLetter, .otherLetter, .decimalNumber, .modifierLetter, .nonspacingMark, .spacingMark: return nil
        default: return .symbolOrPunctuation
        }
    }

    /// The first refused scalar of `text` and why, or `nil` when every scalar is allowed.
    static func firstRefusal(in text: String) -> (scalar: Unicode.Scalar, refusal: Refusal)? {
        for scalar in text.unicodeScalars {
            if let refusal = refusal(scalar) { return (scalar, refusal) }
        }
        return nil
    }

    /// RFC 5892 §2.6's exceptions: the PVALID ones (allowed: `nil`), and the CONTEXTO and DISALLOWED ones, refused.
    private static let exceptions: [UInt32: Refusal?] = {
        var table: [UInt32: Refusal?] = [:]
        for value: UInt32 in [0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007] { table[value] = .some(Refusal?.none) }
        let refused: [UInt32] =
            [0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB] + Array(0x0660...0x0669) + Array(0x06F0...0x06F9)
            + [0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B]
        for value in refused { table[value] = .some(Refusal.symbolOrPunctuation) }
        return table
    }()

    /// RFC 8264 §9.9: the conjoining jamo blocks (modern jamo compose into syllables under NFC, so what is
    /// left is old jamo or a filler).
    private static func isOldHangulJamo(_ value: UInt32) -> Bool {
        (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
    }

    /// RFC 8264 §9.17 HasCompat: NFKC changes the code point.
    private static func hasCompatibilityMapping(_ scalar: Unicode.Scalar) -> Bool {
        let text = String(scalar)
        return text.precomposedStringWithCompatibilityMapping.unicodeScalars.elementsEqual(text.unicodeScalars) == false
    }
}

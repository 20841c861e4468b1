import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

/// Issue 48: one escaping rule per output format, each by Unicode scalar — a quote or `<` that a mark joins
/// into one `Character` is escaped all the same.
@Suite("Output escaping by scalar: HTML, XML, terminal")
struct OutputEscapingTests {
    @Test(
        "htmlEscaped: the five specials by scalar, also inside a grapheme cluster; controls and noncharacters become U+FFFD",
        arguments: [
            ("a<b>&\"'", "a&lt;b&gt;&amp;&quot;&#39;"),
            ("\"\u{301}", "&quot;\u{301}"),
            ("\u{600}<\u{600}>", "\u{600}&lt;\u{600}&gt;"),
            ("x\u{1B}[31m\u{0}\u{7F}\u{85}y", "x\u{FFFD}[31m\u{FFFD}\u{FFFD}\u{FFFD}y"),
            ("a" + HostileMarkup.scalar(0xFFFE) + "b" + HostileMarkup.scalar(0xFDD0) + "c", "a\u{FFFD}b\u{FFFD}c"),
            ("tab\tline\ncr\r", "tab\tline\ncr\r"),
            ("caf\u{E9} 日本 👩‍👩‍👧", "caf\u{E9} 日本 👩‍👩‍👧"),
        ])
    func html(text: String, escaped: String) {
        #expect(Array(text.htmlEscaped.unicodeScalars) == Array(escaped.unicodeScalars))
    }

    @Test(
        "xmlEscaped: the five specials by scalar; tab and line breaks as references; what XML 1.0 forbids becomes U+FFFD",
        arguments: [
            ("a<b>&\"'", "a&lt;b&gt;&amp;&quot;&#39;"),
            ("\"\u{301}<\u{301}", "&quot;\u{301}&lt;\u{301}"),
            ("\u{600}<", "\u{600}&lt;"),
            (HostileMarkup.noncharacters + "\u{1B}d\u{0}", "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}"),
            ("t\tl\nr\r", "t&#9;l&#10;r&#13;"),
            (
                "\u{85}" + HostileMarkup.scalar(0xFDD0) + HostileMarkup.scalar(0x10FFFF),
                "\u{85}" + HostileMarkup.scalar(0xFDD0) + HostileMarkup.scalar(0x10FFFF)
            ),
        ])
    func xml(text: String, escaped: String) {
        #expect(Array(text.xmlEscaped.unicodeScalars) == Array(escaped.unicodeScalars))
    }

    @Test(
        "terminalEscaped: controls, C1 and direction overrides shown as \\u{…}, a backslash doubled, everything else kept",
        arguments: [
            ("ok\u{1B}[2J", #"ok\u{1B}[2J"#),
            ("a\rb\nc\td\u{7}", #"a\u{D}b\u{A}c\u{9}d\u{7}"#),
            ("\u{9B}2J\u{7F}", #"\u{9B}2J\u{7F}"#),
            ("\u{202E}txt.exe\u{2066}", #"\u{202E}txt.exe\u{2066}"#),
            (#"C:\path"#, #"C:\\path"#),
            ("\"\u{301} 日本", "\"\u{301} 日本"),
        ])
    func terminal(text: String, escaped: String) {
        #expect(text.terminalEscaped == escaped)
    }

    @Test("no hostile payload leaves a raw special, control or noncharacter in any format")
    func payloads() {
        let text = HostileMarkup.all + HostileMarkup.formSwapState + HostileMarkup.metaRefreshClientID
        #expect(!text.htmlEscaped.unicodeScalars.contains { ("<>\"'\u{1B}" + HostileMarkup.scalar(0xFFFE)).unicodeScalars.contains($0) })
        #expect(
            !text.xmlEscaped.unicodeScalars.contains {
                ("<>\"'\u{1B}\n" + HostileMarkup.scalar(0xFFFE) + HostileMarkup.scalar(0xFFFF)).unicodeScalars.contains($0)
            })
        #expect(!text.terminalEscaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test(
        "JSON for a terminal: DEL, C1 and direction controls become \\u escapes that a JSON reader turns back into the same text",
        arguments: ["\u{9B}2J\u{7F}", "\u{202E}txt.exe\u{2066}", "plain \"quoted\" 日本\u{301}", "\u{85}\u{200F}\u{2069}"])
    func jsonForTerminal(text: String) throws {
        let encoded = String(decoding: try JSONEncoder().encode(["reason": text]), as: UTF8.self)
        let escaped = encoded.jsonTerminalEscaped
        #expect(
            !escaped.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            })
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(escaped.utf8))
        #expect(decoded["reason"] == text)
    }
}

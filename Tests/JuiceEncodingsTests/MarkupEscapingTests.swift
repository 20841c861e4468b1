import JuiceEncodings
import Testing

@Suite("markupEscaped: text safe inside HTML and XML text and attributes")
struct MarkupEscapingTests {
    @Test(
        "the five markup characters become entities; other text, tabs and line breaks stay",
        arguments: [
            ("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"),
            ("a \"b\" & c", "a &quot;b&quot; &amp; c"),
            ("&amp;", "&amp;amp;"),
            ("Zoë 张\tline\r\nnext", "Zoë 张\tline\r\nnext"),
        ])
    func escapes(text: String, escaped: String) {
        #expect(text.markupEscaped == escaped)
    }

    @Test("C0 control characters XML 1.0 forbids are dropped")
    func dropsControls() {
        #expect("a\u{0}b\u{1}c\u{8}d\u{B}e\u{1F}f".markupEscaped == "abcdef")
    }
}

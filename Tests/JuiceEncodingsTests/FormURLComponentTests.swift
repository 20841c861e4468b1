import JuiceEncodings
import Testing

@Suite("Form-urlencoded names and values: encoded and decoded in one pass, broken escapes and non-UTF-8 refused")
struct FormURLComponentTests {
    @Test(
        "decodes + as a space, %XX in either case, multi-byte UTF-8, and leaves other bytes alone",
        arguments: [
            ("a+b", "a b"), ("%41%62c", "Abc"), ("%e2%9c%93+ok", "✓ ok"), ("Zo%C3%A9", "Zoé"), ("", ""), ("a%2Bb", "a+b"),
            ("eyJ.a-b_c~", "eyJ.a-b_c~"), ("%25", "%"),
        ])
    func decodes(encoded: String, decoded: String) {
        #expect(FormURLComponent.decode(encoded[...]) == decoded)
    }

    @Test("refuses a broken escape or bytes that are not UTF-8", arguments: ["%", "%4", "%zz", "%4g", "a%", "%C3", "%FF%FE", "%C3%28"])
    func refuses(encoded: String) {
        #expect(FormURLComponent.decode(encoded[...]) == nil)
    }

    @Test(
        "encodes every byte but RFC 3986 unreserved as upper-case %XX, non-ASCII letters included",
        arguments: [
            ("a b", "a%20b"), ("a+b&c=d", "a%2Bb%26c%3Dd"), ("Zoé", "Zo%C3%A9"), ("✓", "%E2%9C%93"), ("", ""),
            ("eyJ.a-b_c~", "eyJ.a-b_c~"), ("%/?#", "%25%2F%3F%23"), ("\u{0}\n", "%00%0A"),
        ])
    func encodes(decoded: String, encoded: String) {
        #expect(FormURLComponent.encode(decoded) == encoded)
        #expect(FormURLComponent.decode(encoded[...]) == decoded)
    }

    @Test("fields encode in order as name=value pairs joined by &")
    func fields() {
        let fields = [("client_id", "com.example.app"), ("redirect_uri", "https://example.com/cb?x=1"), ("name", "Zoé Ünal")]
        let body = FormURLComponent.encode(fields: fields)
        #expect(body == "client_id=com.example.app&redirect_uri=https%3A%2F%2Fexample.com%2Fcb%3Fx%3D1&name=Zo%C3%A9%20%C3%9Cnal")
    }

    @Test("pairs: split on &, empty pairs left out, a missing = is an empty value, a broken side is nil, order and repeats kept")
    func pairs() {
        let pairs = FormURLComponent.pairs("a=1&&b&c=x%20y&a=2&%zz=3&d=%4")
        #expect(pairs.map(\.name) == ["a", "b", "c", "a", nil, "d"])
        #expect(pairs.map(\.value) == ["1", "", "x y", "2", "3", nil])
        #expect(FormURLComponent.pairs("").isEmpty)
    }
}

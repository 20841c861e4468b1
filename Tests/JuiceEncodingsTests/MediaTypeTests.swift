import JuiceEncodings
import Testing

@Suite("Content-Type media types: parameters dropped, blanks trimmed, case folded")
struct MediaTypeTests {
    @Test(
        "gives type/subtype in lower case",
        arguments: [
            ("Application/JSON; charset=utf-8", "application/json"), (" application/x-www-form-urlencoded ;x=1", "application/x-www-form-urlencoded"),
            ("\ttext/html\t", "text/html"), ("text/plain", "text/plain"), ("", ""), (";charset=utf-8", ""), ("  ", ""),
            ("application/jsön", "application/jsön"),
        ])
    func essence(header: String, expected: String) {
        #expect(MediaType.essence(of: header) == expected)
    }

    @Test("a missing header has no media type")
    func missing() {
        #expect(MediaType.essence(of: nil) == nil)
    }
}

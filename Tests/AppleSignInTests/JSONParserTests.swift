import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("The strict JSON parser used for token segments")
struct JSONParserTests {
    @Test("parses every JSON form")
    func forms() throws {
        let value = try JSONParser.parse(
            #" {"s":"a\"b\\c\/d\u00e9\ud83c\udf4f\n","i":-12,"f":1.5e3,"t":true,"n":null,"a":[1,[],{}],"o":{"x":false}} "#)
        #expect(value["s"] == .string("a\"b\\c/d\u{e9}\u{1F34F}\n"))
        #expect(value["i"] == .integer(-12))
        #expect(value["f"] == .number(1500))
        #expect(value["t"] == .bool(true))
        #expect(value["n"] == .null)
        #expect(value["a"] == .array([.integer(1), .array([]), .object([:])]))
        #expect(value["o"]?["x"] == .bool(false))
    }

    @Test(
        "refuses what is not strict JSON",
        arguments: [
            "", "{", "}", "{\"a\":}", "{\"a\":1,}", "[1,]", "{\"a\":1}x", "{'a':1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}",
            "{\"a\":\"\u{01}\"}", "{\"a\":\"\\ud83c\"}", "{\"a\":\"\\udf4f\"}", "{\"a\":\"\\x\"}", "{\"a\":1,\"a\":2}", "tru", "nul",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "{\"a\":1e}", "-", "NaN",
        ])
    func refuses(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    @Test("compares member names by code points, as JOSE does, and refuses duplicates among many members")
    func memberNames() throws {
        // 70 members: past the linear duplicate scan, into the set-based one.
        let many = (0..<70).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
        #expect(try JSONParser.parseObjectMembers(Array("{\(many)}".utf8))["m69"] == .integer(69))
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parseObjectMembers(Array("{\(many),\"m3\":0}".utf8)) }
        // "é" precomposed and decomposed are two names (Swift's == would call them equal), and neither is "e".
        let claims = try JSONParser.parseObjectMembers(Array(#"{"\u00e9":1,"e\u0301":2}"#.utf8))
        #expect(claims["\u{e9}"] == .integer(1))
        #expect(claims["e\u{301}"] == .integer(2))
        #expect(claims["e"] == nil)
    }

    @Test("refuses invalid UTF-8 in strings")
    func invalidUTF8() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }
}

import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("Known claim names, recognized while parsing")
struct ClaimNameTests {
    @Test("every known name is recognized from its own spelling, and only from it", arguments: ClaimName.allCases)
    func roundTrip(claim: ClaimName) {
        #expect(ClaimName(claim.name) == claim)
        // Same length, first and last byte, one byte changed in the middle (or the case of a byte).
        var altered = Array(claim.name.utf8)
        let middle = altered.count / 2
        altered[middle] = altered[middle] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        #expect(ClaimName(String(decoding: altered, as: UTF8.self)) == nil)
        #expect(ClaimName(claim.name.uppercased()) == nil)
        #expect(ClaimName(claim.name + " ") == nil)
        #expect(ClaimName(String(claim.name.dropLast())) == nil)
    }

    @Test("names that are not known stay plain members", arguments: ["", "i", "at_hash", "ISS", "is", "issuer", "subs", "c-hash"])
    func unknown(name: String) throws {
        #expect(ClaimName(name) == nil)
        let claims = try JSONParser.parseObjectMembers(Array(#"{"\#(name)":1}"#.utf8))
        #expect(claims.members.first?.claim == nil)
        #expect(claims[name] == .integer(1))
    }

    @Test("an escaped spelling of a known name is that name: found by it, and a duplicate of it refused")
    func escapedSpelling() throws {
        let claims = try JSONParser.parseObjectMembers(Array(#"{"i\u0073s":"escaped","aud":"x"}"#.utf8))
        #expect(claims[.iss] == .string("escaped"))
        #expect(claims["iss"] == .string("escaped"))
        #expect(claims.members.first?.claim == .iss)
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parseObjectMembers(Array(#"{"iss":"a","i\u0073s":"b"}"#.utf8))
        }
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parseObjectMembers(Array(#"{"nonce":"a","sub":"s","nonce":"b"}"#.utf8))
        }
    }

    @Test("a token with a second, different audience under an escaped name is refused before any claim is read")
    func duplicateAudienceToken() throws {
        // If the second "aud" were kept apart from the first, a policy and a reader could disagree on it.
        let payload = #"{"aud":"com.example.app","a\u0075d":"com.attacker.app","sub":"1"}"#
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parseObjectMembers(Array(payload.utf8)) }
    }

    @Test("lookups by known name and by string agree, with known and other names mixed past the linear duplicate scan")
    func mixedMembers() throws {
        let others = (0..<70).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
        let text = #"{"sub":"s",\#(others),"real_user_status":2,"is_private_email":"true"}"#
        let claims = try JSONParser.parseObjectMembers(Array(text.utf8))
        #expect(claims[.sub] == .string("s"))
        #expect(claims[.realUserStatus] == .integer(2))
        #expect(claims["is_private_email"] == .string("true"))
        #expect(claims["m69"] == .integer(69))
        #expect(claims[.nonce] == nil)
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parseObjectMembers(Array(#"{"sub":"s",\#(others),"m0":1}"#.utf8))
        }
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parseObjectMembers(Array(#"{"sub":"s",\#(others),"sub":"t"}"#.utf8))
        }
    }
}

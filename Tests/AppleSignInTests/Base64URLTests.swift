import Foundation
import JuiceEncodings
import Testing

@testable import AppleSignIn

@Suite("base64url")
struct Base64URLTests {
    @Test("round-trips every length and byte value")
    func roundTrip() {
        var generator = SeededGenerator(seed: 42)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == bytes)
            // Sequences without contiguous storage and raw buffers encode the same.
            #expect(Base64URL.encode(AnySequence(bytes)) == encoded)
            #expect(bytes.withUnsafeBytes { Base64URL.encode($0) } == encoded)
            #expect(
                Data(
                    base64Encoded: encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/").padding(
                        toLength: (encoded.count + 3) / 4 * 4, withPad: "=", startingAt: 0)) == Data(bytes))
        }
    }

    @Test(
        "accepts correct padding, refuses what no encoder produces",
        arguments: [
            ("QQ==", [UInt8(65)]), ("QUI=", [65, 66]), ("QQ", [65]),
        ])
    func padding(text: String, bytes: [UInt8]) {
        #expect(Base64URL.decode(text) == bytes)
    }

    @Test(
        "refuses characters outside the alphabet and impossible lengths",
        arguments: ["Q", "QQ=", "Q===", "QQ+A", "QQ/A", "QQ A", "QQ\u{0}A", "=QQA", "QQ=A", "é"])
    func refuses(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}

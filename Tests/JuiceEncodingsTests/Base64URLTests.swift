import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

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

    @Test("decodes into a caller's buffer only when it is large enough, and refuses bad text there too")
    func decodeIntoBuffer() {
        func decode(_ text: String, capacity: Int) -> [UInt8]? {
            Array(text.utf8).withUnsafeBufferPointer { input in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { output in
                    Base64URL.decode(input, into: output).map { Array(output[..<$0]) }
                }
            }
        }
        #expect(Array("QUJD".utf8).withUnsafeBufferPointer(Base64URL.decodedCount) == 3)
        #expect(Array("QUI=".utf8).withUnsafeBufferPointer(Base64URL.decodedCount) == 2)
        #expect(Array("Q".utf8).withUnsafeBufferPointer(Base64URL.decodedCount) == nil)
        #expect(decode("QUJDRA", capacity: 4) == [65, 66, 67, 68])
        #expect(decode("QUJDRA", capacity: 3) == nil)
        #expect(decode("QUJ+RA", capacity: 4) == nil)
        #expect(decode("QUI=", capacity: 2) == [65, 66])
    }
}

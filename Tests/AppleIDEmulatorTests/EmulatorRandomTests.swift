import Testing

@testable import AppleIDEmulator

@Suite("The emulator's random strings: exact length, only the alphabet's characters, bytes past the uniform range skipped")
struct EmulatorRandomTests {
    @Test("draws exactly `length` characters from the alphabet, skipping bytes that would bias the draw")
    func string() {
        // 256 % 10 = 6: bytes 250...255 would favour 0–5, so they are skipped and the next byte is used.
        let bytes: [UInt8] = [255, 250, 0, 13, 249, 7, 252, 42]
        let random = EmulatorRandom { count in Array((0..<count).map { bytes[$0 % bytes.count] }) }
        #expect(random.string(length: 5, alphabet: "0123456789") == "03972")
        #expect(random.digits(3) == "039")
    }

    @Test("the system generator gives codes of the right length and alphabet")
    func system() {
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        for length in [1, 4, 22, 64] {
            let value = EmulatorRandom.system.string(length: length, alphabet: alphabet)
            #expect(value.utf8.count == length)
            #expect(value.allSatisfy { alphabet.contains($0) })
        }
    }
}

import JuiceEncodings
import Testing

@Suite("Hexadecimal: two lowercase digits a byte out, either case in, anything else refused")
struct HexTests {
    @Test("every byte value is two lowercase digits, high nibble first")
    func encodes() {
        #expect([UInt8]().hexString == "")
        #expect([0x00, 0x0F, 0xA0, 0xFF].hexString == "000fa0ff")
        let all = (0...255).map(UInt8.init).hexString
        #expect(all.utf8.count == 512)
        #expect(all.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test("reads 0-9, a-f and A-F as digits and round-trips every byte")
    func decodesDigits() {
        for byte in UInt8.min...UInt8.max {
            let digits = Array([byte].hexString.utf8)
            #expect(digits[0].hexDigitValue.flatMap { high in digits[1].hexDigitValue.map { high << 4 | $0 } } == byte)
        }
        #expect(UInt8(ascii: "F").hexDigitValue == 15)
    }

    @Test("refuses every byte that is not a hexadecimal digit", arguments: ["g", "G", "/", ":", "@", "`", " ", "\u{0}", "z"])
    func refuses(character: Character) {
        #expect(character.asciiValue?.hexDigitValue == nil)
    }
}

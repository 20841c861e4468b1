extension Sequence<UInt8> {
    /// Lowercase hexadecimal, two digits a byte (digests as stored, random identifiers).
    package var hexString: String {
        var output = [UInt8]()
        output.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

extension UInt8 {
    /// The value of this byte as one hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), or `nil`.
    package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

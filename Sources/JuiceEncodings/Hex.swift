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

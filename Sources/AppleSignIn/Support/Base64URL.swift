import Foundation

/// Base64url without padding (RFC 7515 §2), as used by every part of a JWT.
enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.last == "=" { text.removeLast() }
        return text
    }

    /// Decodes unpadded (or padded) base64url; `nil` for any character outside the alphabet.
    static func decode(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3 / 4 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        var sawPadding = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                sawPadding = true
                continue
            }
            if sawPadding { return nil }
            guard let value = sextet(byte) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // A single leftover sextet cannot encode a byte.
        if bits >= 6 { return nil }
        return output
    }

    static func decode(_ text: String) -> [UInt8]? {
        decode(Substring(text))
    }

    @inline(__always)
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

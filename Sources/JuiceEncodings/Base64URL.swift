/// Base64url without padding (RFC 4648 §5, RFC 7515 §2): JWT segments, keys, random tokens.
///
/// Strict: decoding refuses `+`, `/`, whitespace and any length no encoder produces.
package enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    ///
    /// Inlinable so that each caller gets a specialized copy: unspecialized across modules, the
    /// generic sequence handling looked up type metadata on every call of the token verifier's `c_hash` check.
    @inlinable
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) {
            return encoded
        }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// Encodes the bytes in `input` as unpadded base64url, writing the string's storage directly.
    package static func encode(_ input: UnsafeRawBufferPointer) -> String {
        let count = input.count / 3 * 4 + [0, 2, 3][input.count % 3]
        return alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: count) { output in
                var index = 0
                var written = 0
                while index + 3 <= input.count {
                    let word = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[written] = alphabet[Int(word >> 18 & 63)]
                    output[written + 1] = alphabet[Int(word >> 12 & 63)]
                    output[written + 2] = alphabet[Int(word >> 6 & 63)]
                    output[written + 3] = alphabet[Int(word & 63)]
                    index += 3
                    written += 4
                }
                let remaining = input.count - index
                if remaining > 0 {
                    let word = UInt32(input[index]) << 16 | (remaining == 2 ? UInt32(input[index + 1]) << 8 : 0)
                    output[written] = alphabet[Int(word >> 18 & 63)]
                    output[written + 1] = alphabet[Int(word >> 12 & 63)]
                    written += 2
                    if remaining == 2 {
                        output[written] = alphabet[Int(word >> 6 & 63)]
                        written += 1
                    }
                }
                return written
            }
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decodes unpadded (or correctly padded) base64url; `nil` for any character outside the alphabet
    /// or a length no encoder produces.
    package static func decode(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        input.withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes the base64url text in a byte buffer, by the same rules as the slice form.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let count = decodedCount(text) else { return nil }
        var valid = true
        let output = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            valid = decode(text, into: output) != nil
            initialized = valid ? count : 0
        }
        return valid ? output : nil
    }

    /// How many bytes `text` decodes to; `nil` for a length no encoder produces (the characters are
    /// checked by decoding).
    package static func decodedCount(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        measure(text)?.decoded
    }

    /// The characters before any padding, and the bytes they decode to.
    private static func measure(_ text: UnsafeBufferPointer<UInt8>) -> (characters: Int, decoded: Int)? {
        var padding = 0
        while padding < 2, padding < text.count, text[text.count - 1 - padding] == UInt8(ascii: "=") { padding += 1 }
        let characters = text.count - padding
        if padding > 0 && text.count % 4 != 0 { return nil }
        if characters % 4 == 1 { return nil }
        return (characters, characters / 4 * 3 + max(0, characters % 4 - 1))
    }

    /// Decodes `text` into the start of `output`, which holds at least ``decodedCount(_:)`` bytes, without
    /// allocating; returns the number of bytes written, or `nil` for text that is not base64url.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard let (count, decoded) = measure(text), output.count >= decoded else { return nil }
        return table.withUnsafeBufferPointer { table -> Int? in
            var index = 0
            var written = 0
            var invalid: UInt8 = 0
            while index + 4 <= count {
                let a = table[Int(text[index])], b = table[Int(text[index + 1])]
                let c = table[Int(text[index + 2])], d = table[Int(text[index + 3])]
                invalid |= a | b | c | d
                let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                output[written] = UInt8(truncatingIfNeeded: word >> 16)
                output[written + 1] = UInt8(truncatingIfNeeded: word >> 8)
                output[written + 2] = UInt8(truncatingIfNeeded: word)
                index += 4
                written += 3
            }
            let remaining = count - index
            if remaining >= 2 {
                let a = table[Int(text[index])], b = table[Int(text[index + 1])]
                let c = remaining == 3 ? table[Int(text[index + 2])] : 0
                invalid |= a | b | c
                let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                output[written] = UInt8(truncatingIfNeeded: word >> 16)
                written += 1
                if remaining == 3 {
                    output[written] = UInt8(truncatingIfNeeded: word >> 8)
                    written += 1
                }
            }
            return invalid & 0x80 == 0 ? written : nil
        }
    }

    /// Decodes base64url text.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(ArraySlice(text.utf8))
    }

    /// Sextet values by byte; 0xFF marks bytes outside the alphabet.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()
}

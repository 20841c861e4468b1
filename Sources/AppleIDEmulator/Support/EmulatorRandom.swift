import Crypto
import JuiceEncodings

/// Where the emulator gets random bytes for codes, tokens, identifiers and relay addresses.
///
/// The default is the system's cryptographically secure generator. (RSA signing keys are generated
/// by BoringSSL's own generator.)
public struct EmulatorRandom: Sendable {
    private let generate: @Sendable (Int) -> [UInt8]

    /// Creates a source from a closure returning `count` random bytes.
    public init(_ generate: @escaping @Sendable (Int) -> [UInt8]) {
        self.generate = generate
    }

    /// `count` random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        generate(count)
    }

    /// The system's secure generator.
    public static let system = EmulatorRandom { count in
        // swift-crypto fills the bytes eight at a time from the system generator: one getrandom(2)
        // per 8 bytes, where a byte at a time cost one per byte.
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    /// Lowercase hexadecimal of `byteCount` random bytes.
    func hex(bytes byteCount: Int) -> String {
        bytes(byteCount).hexString
    }

    /// `length` characters drawn uniformly from `alphabet`.
    func string(length: Int, alphabet: String) -> String {
        // The alphabets are ASCII, so a character is a byte: no grapheme breaking or counting per pick.
        let characters = Array(alphabet.utf8)
        assert(characters.allSatisfy { $0 < 0x80 }, "EmulatorRandom.string takes an ASCII alphabet")
        var result: [UInt8] = []
        result.reserveCapacity(length)
        // Rejection sampling keeps the distribution uniform.
        let limit = 256 - (256 % characters.count)
        while result.count < length {
            for byte in bytes(length * 2) where Int(byte) < limit && result.count < length {
                result.append(characters[Int(byte) % characters.count])
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `length` decimal digits.
    func digits(_ length: Int) -> String {
        string(length: length, alphabet: "0123456789")
    }
}

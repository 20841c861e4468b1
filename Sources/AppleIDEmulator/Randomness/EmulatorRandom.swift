import Crypto
import CryptoExtras
import JuiceEncodings
import Synchronization

/// Where the emulator gets random bytes for codes, tokens, identifiers and relay addresses.
///
/// The default is the system's cryptographically secure generator. RSA signing keys are generated
/// by BoringSSL's own generator (tests hand in keys made beforehand: ``withSigningKeys(pem:)``).
public struct EmulatorRandom: Sendable {
    private let generate: @Sendable (Int) -> [UInt8]
    private let makeSigningKey: @Sendable () throws -> _RSA.Signing.PrivateKey

    /// Creates a source from a closure returning `count` random bytes.
    public init(_ generate: @escaping @Sendable (Int) -> [UInt8]) {
        self.generate = generate
        self.makeSigningKey = { try _RSA.Signing.PrivateKey(keySize: .bits2048) }
    }

    private init(generate: @escaping @Sendable (Int) -> [UInt8], makeSigningKey: @escaping @Sendable () throws -> _RSA.Signing.PrivateKey) {
        self.generate = generate
        self.makeSigningKey = makeSigningKey
    }

    /// This source, but with new signing keys read from `pem` (one PEM per key) instead of generated:
    /// for tests, which start many emulators, where a debug build spends up to seconds of CPU per key.
    package func withSigningKeys(pem: @escaping @Sendable () -> String) -> EmulatorRandom {
        EmulatorRandom(generate: generate, makeSigningKey: { try _RSA.Signing.PrivateKey(pemRepresentation: pem()) })
    }

    /// This source, but its first signing keys are `keys` (in order), and later ones generated:
    /// `juice emulator --signing-keys FILE`, a start that reuses the keys of an earlier one.
    package func withFirstSigningKeys(_ keys: [_RSA.Signing.PrivateKey]) -> EmulatorRandom {
        let remaining = Mutex(keys[...])
        let generated = makeSigningKey
        return EmulatorRandom(
            generate: generate,
            makeSigningKey: {
                try remaining.withLock { $0.popFirst() } ?? generated()
            })
    }

    /// A new RSA-2048 signing key.
    func signingKey() throws -> _RSA.Signing.PrivateKey {
        try makeSigningKey()
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

import Crypto
import Foundation
import JuiceEncodings
import Synchronization

/// Where the server gets randomness: session tokens, CSRF tokens, account ids.
///
/// Production uses the system's secure generator; tests may inject a seeded source so that ids are
/// reproducible (never use a seeded source in production).
///
/// ```swift
/// let random = ServerRandom.system
/// let token = random.token()  // 32 random bytes, base64url
/// ```
public struct ServerRandom: Sendable {
    private let fill: @Sendable (Int) -> [UInt8]

    /// Creates a source from a closure returning `count` random bytes.
    public init(_ fill: @escaping @Sendable (Int) -> [UInt8]) {
        self.fill = fill
    }

    /// The system's cryptographically secure generator.
    public static let system = ServerRandom { count in
        // swift-crypto fills the bytes eight at a time from the system generator: one getrandom(2)
        // per 8 bytes, where a byte at a time cost one per byte.
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    /// A deterministic source for tests (SplitMix64 from `seed`). Not secure.
    public static func seeded(_ seed: UInt64) -> ServerRandom {
        let state = Mutex(seed)
        return ServerRandom { count in
            state.withLock { state in
                (0..<count).map { _ in
                    state &+= 0x9E37_79B9_7F4A_7C15
                    var z = state
                    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                    return UInt8(truncatingIfNeeded: z ^ (z >> 31))
                }
            }
        }
    }

    /// `count` random bytes.
    public func bytes(_ count: Int) -> [UInt8] { fill(count) }

    /// `byteCount` random bytes as base64url without padding (43 characters for 32 bytes).
    public func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(byteCount))
    }

    /// A random identifier in UUID form (version 4 bits set).
    public func identifier() -> String {
        var raw = bytes(16)
        raw[6] = (raw[6] & 0x0F) | 0x40
        raw[8] = (raw[8] & 0x3F) | 0x80
        let uuid = UUID(
            uuid: (
                raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
            ))
        return uuid.uuidString.lowercased()
    }
}

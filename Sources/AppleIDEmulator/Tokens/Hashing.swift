import Crypto
import JuiceEncodings

/// Apple's `c_hash`/`at_hash` (stored secrets are kept as JuiceEncodings' `sha256Hex` digests).
enum Hashing {
    /// base64url of the left 16 bytes of SHA-256 of `value` (`c_hash`, `at_hash`).
    static func leftHalfHash(_ value: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(value.utf8)).prefix(16))
    }
}

import Crypto
import JuiceEncodings

/// SHA-256 helpers: stored secrets are kept as digests, and Apple's `c_hash`/`at_hash`.
enum Hashing {
    /// Lowercase hex SHA-256 of `text`: how codes and tokens are stored.
    static func storageKey(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).hexString
    }

    /// base64url of the left 16 bytes of SHA-256 of `value` (`c_hash`, `at_hash`).
    static func leftHalfHash(_ value: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(value.utf8)).prefix(16))
    }
}

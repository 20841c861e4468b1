import Crypto
import JuiceEncodings

extension SHA256 {
    /// The lowercase hex SHA-256 of a string's UTF-8 bytes: how codes, nonces and tokens are stored.
    static func hex(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).hexString
    }
}

import Crypto

/// The lowercase hex SHA-256 of a string's UTF-8 bytes (64 digits): how the server and the emulator
/// store codes, nonces and tokens, and the nonce Apple is sent for a raw one.
package func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Array(text.utf8)).hexString
}

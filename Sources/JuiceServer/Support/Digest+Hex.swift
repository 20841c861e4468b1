import Crypto
import Foundation

extension SHA256 {
    /// The lowercase hex SHA-256 of a string's UTF-8 bytes.
    static func hex(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// Compares two strings in time independent of where they differ.
func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    let a = Array(lhs.utf8)
    let b = Array(rhs.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}

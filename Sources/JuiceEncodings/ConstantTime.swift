/// Compares two strings without an early exit on the first differing byte (passwords, tokens,
/// nonces, hashes). Only the lengths may leak through timing.
package func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in
        rhs.withUTF8 { right in
            guard left.count == right.count else { return false }
            var difference: UInt8 = 0
            for index in 0..<left.count {
                difference |= left[index] ^ right[index]
            }
            return difference == 0
        }
    }
}

/// Compares two strings without an early exit on the first differing byte (passwords, tokens,
/// nonces, hashes). Only the lengths may leak through timing.
package func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in
        rhs.withUTF8 { right in constantTimeEquals(left, right) }
    }
}

/// Compares two byte strings (challenges, hashes) the same way: only the lengths may leak.
package func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.withUnsafeBufferPointer { left in
        rhs.withUnsafeBufferPointer { right in constantTimeEquals(left, right) }
    }
}

private func constantTimeEquals(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<left.count {
        difference |= left[index] ^ right[index]
    }
    return difference == 0
}

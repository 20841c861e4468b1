/// The members of a JWT header or payload, in document order.
///
/// A token has a dozen or so members, each read once or twice: a linear scan with byte equality
/// beats building and probing a hashed dictionary on the hot path.
struct ClaimSet: Sendable, Hashable {
    struct Member: Sendable, Hashable {
        let name: String
        let value: JSONValue
    }

    let members: [Member]

    /// The value of member `name`, if present.
    subscript(name: String) -> JSONValue? {
        for member in members where Self.sameName(member.name, name) {
            return member.value
        }
        return nil
    }

    /// The members as a dictionary.
    var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether two member names are the same: the same code points, compared byte by byte without Unicode
    /// normalization, as JOSE's string comparison rules require (RFC 7515 §5.3, RFC 7519 §7.3). `==` on
    /// `String` would also find canonically equivalent spellings equal, and it takes the standard
    /// library's general comparison for every pair that differs, which is most of them on this hot path.
    @inline(__always)
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Both names in place (a small string is copied to the stack); only a bridged string has no
        // contiguous UTF-8 and takes the iterating comparison.
        let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                var difference: UInt8 = 0
                for index in 0..<left.count { difference |= left[index] ^ right[index] }
                return difference == 0
            }
        }
        return (inPlace ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }
}

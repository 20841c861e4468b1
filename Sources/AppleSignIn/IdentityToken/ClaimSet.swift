import JuiceEncodings

/// The members of a JWT header or payload, in document order.
///
/// A token has a dozen or so members, each read once or twice: a linear scan beats building and
/// probing a hashed dictionary on the hot path, and the names the toolkit reads were recognized by
/// the parser (``ClaimName``), so a lookup compares one byte per member.
struct ClaimSet: Sendable, Hashable {
    struct Member: Sendable, Hashable {
        /// The known name this member has, if any (the parser recognizes it: always `ClaimName(name)`).
        let claim: ClaimName?
        /// The name when it is none of the known names (empty otherwise: a known name is its ``claim``).
        private let otherName: String
        let value: JSONValue

        /// The member's name.
        var name: String { claim?.name ?? otherName }

        /// A member whose name the parser already recognized as `claim` (or as none of the known names).
        init(name: String, value: JSONValue, claim: ClaimName?) {
            self.claim = claim
            self.otherName = claim == nil ? name : ""
            self.value = value
        }
    }

    let members: [Member]
    /// The known names present, one bit each (``ClaimName/bit``): a lookup of an absent claim, such as
    /// `nbf` or `transfer_sub` in most tokens, returns at once instead of scanning every member.
    private let knownNames: UInt32

    init(members: [Member]) {
        self.members = members
        self.knownNames = members.reduce(0) { $0 | ($1.claim?.bit ?? 0) }
    }

    /// The value of the known member `claim`, if present.
    subscript(claim: ClaimName) -> JSONValue? {
        guard knownNames & claim.bit != 0 else { return nil }
        // By index, reading only each member's one-byte name: iterating members would copy (and
        // retain and release) every name and value it passes.
        for index in members.indices where members[index].claim == claim {
            return members[index].value
        }
        return nil
    }

    /// The value of member `name`, if present.
    subscript(name: String) -> JSONValue? {
        if let claim = ClaimName(name) { return self[claim] }
        for member in members where member.claim == nil && Self.sameName(member.name, name) {
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

/// The members of a JWT header or payload, in document order.
///
/// A token has a dozen or so members, each read once or twice: a linear scan with (mostly inline,
/// small-string) equality beats building and probing a hashed dictionary on the hot path.
struct ClaimSet: Sendable, Hashable {
    struct Member: Sendable, Hashable {
        let name: String
        let value: JSONValue
    }

    let members: [Member]

    /// The value of member `name`, if present.
    subscript(name: String) -> JSONValue? {
        for member in members where member.name == name {
            return member.value
        }
        return nil
    }

    /// The members as a dictionary.
    var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A JSON value the kit sends: Apple's claims mix strings, numbers and booleans (sometimes as
/// strings); the native request body nests objects.
enum ClaimValue: Encodable, Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case object([String: ClaimValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

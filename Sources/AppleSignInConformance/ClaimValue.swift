/// A JSON claim value: Apple's tokens mix strings, numbers and booleans (sometimes as strings).
enum ClaimValue: Encodable, Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case bool(Bool)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }
}

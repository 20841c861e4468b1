/// A JSON value as it was sent: the header and claims of a captured client secret, shown back unchanged.
///
/// Decoding refuses a value nested deeper than ``maximumDepth``: a record is kept only in a shape that
/// serialises again, so one request cannot make `GET /emulator/admin/requests` fail for every later reader
/// (a client secret whose header nested ~510 objects decoded, then could not be encoded).
package indirect enum CapturedJSON: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([CapturedJSON])
    case object([String: CapturedJSON])

    /// The deepest nesting kept (objects and arrays); a real client secret's header and claims have depth 1.
    static let maximumDepth = 16

    package init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count < Self.maximumDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "nested too deeply to keep"))
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([CapturedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: CapturedJSON].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

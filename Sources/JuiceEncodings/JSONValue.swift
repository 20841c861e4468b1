#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JSON value as it was sent: the raw claims of a verified token (the toolkit), the header and claims
/// of a captured client secret and the claims of a forged token (the emulator and the kit).
///
/// Numbers keep their textual form's meaning: integers that fit in `Int64` are `.integer`,
/// everything else is `.number`.
///
/// Decoding with ``maximumDepthKey`` in the decoder's `userInfo` refuses a value nested deeper than that
/// many objects and arrays (the emulator's request capture keeps 16: a record is kept only in a shape that
/// serialises again). Without it, only the decoder's own limit applies.
package indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string, if this is a string.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as a whole number, if it is one (a float with no fractional part counts).
    package var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    /// The value as a number of seconds or milliseconds, if it is numeric.
    package var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The object's members, if this is an object.
    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Subscript into an object; `nil` for other values or a missing member.
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: Codable {
    /// The `userInfo` key whose `Int` value bounds how deep a decoded value may nest.
    package static let maximumDepthKey = CodingUserInfoKey(rawValue: "JSONValue.maximumDepth")!

    package init(from decoder: any Decoder) throws {
        if let maximumDepth = decoder.userInfo[Self.maximumDepthKey] as? Int, decoder.codingPath.count >= maximumDepth {
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
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
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

extension JSONValue {
    /// Serializes the value as compact JSON with sorted keys.
    package func jsonString() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

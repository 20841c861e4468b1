import Foundation
import JuiceEncodings

/// What request capture keeps of a client secret: its JOSE header and its claims, decoded. Never its
/// signature, which is dropped unread, so a captured secret cannot be replayed (a secret is a bearer
/// credential for six months).
package struct CapturedClientSecret: Sendable, Hashable, Encodable {
    /// The longest client secret whose header and claims are decoded (a real one is about 300 characters).
    static let maximumLength = 4096
    /// The deepest nesting kept (objects and arrays); a real client secret's header and claims have depth 1.
    /// A deeper value is unreadable, so one request cannot make `GET /emulator/admin/requests` fail for
    /// every later reader (a header nesting ~510 objects decoded, then could not be encoded).
    static let maximumDepth = 16

    /// The JOSE header (`alg`, `kid`, …); `nil` when it could not be read.
    package let header: JSONValue?
    /// The claims (`iss`, `sub`, `aud`, `iat`, `exp`, …); `nil` when they could not be read.
    package let claims: JSONValue?

    /// Reads a compact JWS's first two parts; a value that is not three dot-separated parts, is longer
    /// than ``maximumLength`` or whose parts are not Base64URL JSON objects keeps `nil` for what is unreadable.
    init(secret: String) {
        let parts = secret.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard secret.utf8.count <= Self.maximumLength, parts.count == 3 else {
            header = nil
            claims = nil
            return
        }
        header = Self.object(parts[0])
        claims = Self.object(parts[1])
    }

    enum CodingKeys: String, CodingKey {
        case header, claims
    }

    /// Both parts, always: an unreadable part is an explicit `null` (docs/emulator.md), never left out.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(header, forKey: .header)
        try container.encode(claims, forKey: .claims)
    }

    private static func object(_ part: Substring.UTF8View.SubSequence) -> JSONValue? {
        guard let bytes = Base64URL.decode(ArraySlice(part)), let value = try? decode(Data(bytes)),
            case .object = value
        else { return nil }
        return value
    }

    /// Decodes JSON nested at most ``maximumDepth`` levels deep.
    static func decode(_ data: Data) throws -> JSONValue {
        let decoder = JSONDecoder()
        decoder.userInfo[JSONValue.maximumDepthKey] = maximumDepth
        return try decoder.decode(JSONValue.self, from: data)
    }
}

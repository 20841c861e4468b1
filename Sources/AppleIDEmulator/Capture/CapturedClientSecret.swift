import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What request capture keeps of a client secret: its JOSE header and its claims, decoded when the capture
/// is read. Never its signature, which is dropped unread, so a captured secret cannot be replayed (a secret
/// is a bearer credential for six months).
package struct CapturedClientSecret: Sendable, Hashable, Encodable {
    /// The longest client secret whose header and claims are decoded (a real one is about 300 characters).
    static let maximumLength = 4096
    /// The deepest nesting kept (objects and arrays); a real client secret's header and claims have depth 1.
    /// A deeper value is unreadable, so one request cannot make `GET /emulator/admin/requests` fail for
    /// every later reader (a header nesting ~510 objects decoded, then could not be encoded).
    static let maximumDepth = 16

    /// The JOSE header (`alg`, `kid`, …); `nil` when it could not be read.
    package var header: JSONValue? { encodedHeader.flatMap(Self.object) }
    /// The claims (`iss`, `sub`, `aud`, `iat`, `exp`, …); `nil` when they could not be read.
    package var claims: JSONValue? { encodedClaims.flatMap(Self.object) }

    /// The first two parts as sent (Base64URL), decoded only when the capture is read: every request to
    /// `/auth/token` is captured, and few captures are ever listed.
    private let encodedHeader: String?
    private let encodedClaims: String?

    /// Keeps a compact JWS's first two parts; a value that is not three dot-separated parts, is longer
    /// than ``maximumLength`` or whose parts are not Base64URL JSON objects keeps `nil` for what is unreadable.
    init(secret: String) {
        let parts = secret.utf8.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard secret.utf8.count <= Self.maximumLength, parts.count == 3 else {
            encodedHeader = nil
            encodedClaims = nil
            return
        }
        // Copied out of the secret: the signature's bytes are not kept alive with them.
        encodedHeader = String(Substring(parts[0]))
        encodedClaims = String(Substring(parts[1]))
    }

    /// Equal when what can be read of them is: two secrets whose unreadable parts differ are alike.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.header == rhs.header && lhs.claims == rhs.claims
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(claims)
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

    private static func object(_ part: String) -> JSONValue? {
        guard let bytes = Base64URL.decode(ArraySlice(part.utf8)), let value = try? decode(Data(bytes)),
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

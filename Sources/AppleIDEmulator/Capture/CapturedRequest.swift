/// One request to Apple's endpoints, as request capture keeps it (`GET /emulator/admin/requests`).
///
/// Only these fields are kept, whatever the request carried: never a code, a refresh or access token,
/// a password, a state or nonce, or a client secret's signature.
package struct CapturedRequest: Sendable, Hashable, Encodable {
    /// The longest client id or redirect URI kept; a longer value is cut (and marked with `…`).
    static let maximumFieldLength = 512

    package let id: Int
    /// When it arrived, in Unix seconds on the emulator's clock (milliseconds kept).
    package let receivedAt: Double
    package let method: String
    package let path: String
    package let clientID: String?
    package let grantType: String?
    package let redirectURI: String?
    package let clientSecret: CapturedClientSecret?
    /// The HTTP status answered.
    package let status: Int
    /// The `error` code answered (`invalid_grant`, `server_error`, …); `nil` for a success.
    package let error: String?

    enum CodingKeys: String, CodingKey {
        case id, method, path, status, error
        case receivedAt = "received_at"
        case clientID = "client_id"
        case grantType = "grant_type"
        case redirectURI = "redirect_uri"
        case clientSecret = "client_secret"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(receivedAt, forKey: .receivedAt)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(grantType, forKey: .grantType)
        try container.encode(redirectURI, forKey: .redirectURI)
        try container.encode(clientSecret, forKey: .clientSecret)
        try container.encode(status, forKey: .status)
        try container.encode(error, forKey: .error)
    }

    /// `value` cut to ``maximumFieldLength`` characters.
    static func bounded(_ value: String?) -> String? {
        guard let value else { return nil }
        return value.count <= maximumFieldLength ? value : String(value.prefix(maximumFieldLength - 1)) + "…"
    }
}

import JuiceEncodings

/// A successful answer from `/auth/token`.
///
/// Its description is redacted: the tokens in it are secrets.
public struct TokenResponse: Sendable, Hashable, CustomStringConvertible {
    /// The access token (valid `expiresIn` seconds; Apple offers no API that uses it, except migration).
    public let accessToken: String
    /// `Bearer`.
    public let tokenType: String
    /// Seconds the access token lives (3600).
    public let expiresIn: Int
    /// The refresh token: only from the authorization-code grant. Store it (encrypted) to validate the
    /// user later and to revoke on account deletion.
    public let refreshToken: String?
    /// An identity token: from the code and refresh grants.
    public let idToken: String?

    public var description: String {
        "TokenResponse(token_type: \(tokenType), expires_in: \(expiresIn), refresh_token: \(refreshToken == nil ? "none" : "<redacted>"), id_token: \(idToken == nil ? "none" : "<redacted>"))"
    }

    init(json: JSONValue) throws(AppleIDClientError) {
        guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AppleIDClientError(.invalidResponse, "Apple's token response has no access_token", status: 200)
        }
        self.accessToken = accessToken
        self.tokenType = json["token_type"]?.stringValue ?? "Bearer"
        self.expiresIn = json["expires_in"]?.integerValue.map(Int.init) ?? 3600
        self.refreshToken = json["refresh_token"]?.stringValue
        self.idToken = json["id_token"]?.stringValue
    }
}

/// What Apple knows of a user being moved between teams (`/auth/usermigrationinfo`, receiving side).
public struct MigratedUser: Sendable, Hashable {
    /// The user's identifier in the receiving team.
    public let subject: String
    /// The user's email for the receiving team (a new relay address if it was private).
    public let email: String?
    /// Whether ``email`` is a relay address.
    public let isPrivateEmail: Bool?
}

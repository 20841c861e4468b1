/// The JSON `/auth/token` answers.
/// (The conformance kit answers its own `/auth/token` with the same body.)
package struct TokenResponseBody: Encodable, Sendable {
    package let accessToken: String
    package var tokenType = "Bearer"
    package var expiresIn = 3600
    package var refreshToken: String?
    package var idToken: String?

    package init(accessToken: String, refreshToken: String? = nil, idToken: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
    }
}

/// The JSON `/auth/token` answers.
struct TokenResponseBody: Encodable, Sendable {
    let accessToken: String
    var tokenType = "Bearer"
    var expiresIn = 3600
    var refreshToken: String?
    var idToken: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
    }
}

/// The claims of an identity token, named and shaped as Apple sends them (booleans about email as strings).
struct IdentityTokenClaims: Encodable, Sendable {
    let iss: String
    let aud: String
    let exp: Int64
    let iat: Int64
    let sub: String
    var cHash: String?
    var atHash: String?
    var email: String?
    var emailVerified: String?
    var isPrivateEmail: String?
    let authTime: Int64
    var nonce: String?
    let nonceSupported: Bool
    var realUserStatus: Int?
    var transferSub: String?

    enum CodingKeys: String, CodingKey {
        case iss, aud, exp, iat, sub, email, nonce
        case cHash = "c_hash"
        case atHash = "at_hash"
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
        case authTime = "auth_time"
        case nonceSupported = "nonce_supported"
        case realUserStatus = "real_user_status"
        case transferSub = "transfer_sub"
    }
}

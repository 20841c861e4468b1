/// An Apple ID's stored credential.
struct StoredAppleCredential: Sendable, Hashable {
    /// `sub`.
    let subject: String
    /// The client id the refresh token was issued to.
    let clientID: String
    /// The sealed refresh token (base64), if Apple gave one.
    let sealedRefreshToken: String?
}

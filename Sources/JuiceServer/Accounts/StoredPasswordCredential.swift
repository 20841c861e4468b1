/// A stored password credential.
struct StoredPasswordCredential: Sendable, Hashable {
    /// The account.
    let accountID: String
    /// The normalized username.
    let username: String
    /// The bcrypt hash.
    let passwordHash: String
}

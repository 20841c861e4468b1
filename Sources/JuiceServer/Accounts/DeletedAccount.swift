/// What remains to do at Apple after an account is deleted.
struct DeletedAccount: Sendable, Hashable {
    /// The deleted account's id.
    let accountID: String
    /// The Apple ID's client id and sealed refresh token, if one was stored.
    let appleClientID: String?
    /// The sealed refresh token (base64), to revoke.
    let sealedRefreshToken: String?
    /// The Apple ID's `sub`, if linked.
    let appleSubject: String?
    /// The queued revocation (`pending_revocations` id), when a refresh token was stored.
    let pendingRevocationID: String?
}

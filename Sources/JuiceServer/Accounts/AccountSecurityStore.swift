import Foundation

/// An account's password and sessions, as its owner manages them.
protocol AccountSecurityStore: Sendable {
    /// The account's password credential, if it has one.
    func passwordCredential(accountID: String) async throws -> StoredPasswordCredential?

    /// Replaces the account's password hash, or adds a password credential when it has none (the
    /// account keeps its username; one without a username takes `username`), and ends every other
    /// session of the account: one transaction.
    /// - Throws: ``AccountStoreError/usernameTaken`` when adding a username another account has,
    ///   ``AccountStoreError/passwordCredentialMissing`` when the account has no password, no username and none is given.
    func setPassword(accountID: String, username: String?, passwordHash: String, keepingSession sessionID: String, at: Date) async throws

    /// The account's unexpired sessions, newest first (at most 100).
    func activeSessions(accountID: String, now: Date) async throws -> [Session]

    /// Ends one of the account's sessions; `false` when the account has no such session.
    func endSession(id: String, accountID: String) async throws -> Bool

    /// Ends every session of the account except `sessionID`; returns how many.
    func endOtherSessions(accountID: String, keeping sessionID: String) async throws -> Int
}

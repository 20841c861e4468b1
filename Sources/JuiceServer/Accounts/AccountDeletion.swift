import AppleSignIn
import Hummingbird
import Logging

/// Deletes an account as Apple requires: the account, its Apple ID, password and sessions are
/// deleted in one transaction that also queues the Apple refresh token for revocation
/// (`pending_revocations`); the revocation is then tried at once.
///
/// When Apple cannot be reached the account is still deleted and the revocation stays queued;
/// the revocation retry pass (``RevocationQueue/retryDue(logger:)``) retries it with backoff until Apple confirms, so it is never dropped.
struct AccountDeletion: Sendable {
    /// What happened at Apple.
    enum Revocation: String, Sendable, Hashable, Codable {
        /// Apple confirmed the revocation.
        case revoked
        /// Apple could not be reached; the revocation is queued and retried.
        case queued
        /// No Apple refresh token was stored (a password account, or none was issued).
        case noToken = "none"
    }

    let transaction: AccountDeletionTransaction
    let revocations: RevocationQueue
    let time: TimeSource

    /// Deletes the account, then revokes at Apple (or leaves the revocation queued).
    /// - Returns: What happened at Apple; `nil` when there was no such account.
    @discardableResult
    func delete(accountID: String, logger: Logger) async throws -> Revocation? {
        guard let deleted = try await transaction.run(accountID: accountID, at: time.now) else { return nil }
        logger.info("account deleted", metadata: ["account": "\(accountID)"])
        guard let revocationID = deleted.pendingRevocationID else { return .noToken }
        return try await revocations.attempt(id: revocationID, logger: logger) ? .revoked : .queued
    }
}

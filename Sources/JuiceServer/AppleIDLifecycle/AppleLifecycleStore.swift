import AppleSignIn
import Foundation

/// What Apple changes behind the app's back, as stored state: server-to-server notifications
/// (deduplicated on `jti`), credential states, the daily refresh-token check, app transfer.
///
/// Every change that spans tables (an identity's state and its account's sessions, a notification
/// and its effect) is one transaction.
protocol AppleLifecycleStore: Sendable {
    /// Records a verified notification and applies it in one transaction; ``NotificationOutcome/duplicate``
    /// (and no change) when its `jti` was seen before.
    func apply(_ notification: ServerNotification, receivedAt: Date) async throws -> NotificationOutcome

    /// The credential state of an Apple `sub`.
    func credentialState(subject: String) async throws -> CredentialState

    /// Authorized Apple IDs whose refresh token was last checked at or before `checkedBefore` (or never).
    func refreshTokensDue(checkedBefore: Date, limit: Int) async throws -> [StoredAppleCredential]

    /// Records a successful refresh-token check.
    func markChecked(subject: String, at: Date) async throws

    /// Marks an Apple ID revoked (Apple refused its refresh token), drops the token and ends the
    /// account's sessions; returns how many sessions ended.
    @discardableResult
    func markRevoked(subject: String, at: Date) async throws -> Int

    /// Apple IDs that have no transfer identifier yet (the sending team's migration step).
    func subjectsWithoutTransferSubject(limit: Int) async throws -> [StoredAppleCredential]

    /// Stores the `transfer_sub` Apple gave for `subject` ahead of an app transfer.
    func setTransferSubject(_ transferSubject: String, for subject: String) async throws

    /// Apple IDs that carry a `transfer_sub` not yet exchanged for the receiving team's `sub`, as
    /// (`transfer_sub`, client id) pairs.
    func pendingTransfers(limit: Int) async throws -> [(transferSubject: String, clientID: String)]

    /// Re-keys the Apple ID with `transferSubject` to the receiving team's `subject` (the old `sub`
    /// becomes ``CredentialState/transferred``), taking the new team's email when Apple gives one.
    /// Returns whether a row was re-keyed.
    @discardableResult
    func completeTransfer(transferSubject: String, to subject: String, email: String?, isPrivateEmail: Bool?, at: Date) async throws -> Bool
}

/// What applying a notification did.
enum NotificationOutcome: Sendable, Hashable {
    /// Applied; `sessionsEnded` sessions were ended (revocation, deletion).
    case applied(sessionsEnded: Int)
    /// Its `jti` was seen before: nothing changed.
    case duplicate
    /// Recorded, but this server has no such Apple ID or does not know the event type.
    case ignored
}

import Foundation

/// The durable queue of revocations owed to Apple (`pending_revocations`). Entries are added by
/// ``AccountRepository/deleteAccount(id:at:)`` in the deleting transaction and leave the queue only
/// when Apple confirmed the revocation.
protocol RevocationStore: Sendable {
    /// One entry by id.
    func revocation(id: String) async throws -> PendingRevocation?

    /// Entries due at `now`, oldest first.
    func revocationsDue(now: Date, limit: Int) async throws -> [PendingRevocation]

    /// Removes an entry Apple confirmed.
    func complete(id: String) async throws

    /// Records a failed attempt and when to try again; `error` is a code, never a token.
    func reschedule(id: String, attempts: Int, nextAttemptAt: Date, error: String) async throws

    /// How many entries wait.
    func pendingCount() async throws -> Int
}

import Foundation

/// Single-use values of Sign in with Apple, enforced by the database: pending requests (`state` +
/// `nonce`) are consumed by an atomic delete, and authorization codes are claimed by a unique key.
protocol AuthorizationStore: Sendable {
    /// Saves a pending request.
    func save(_ request: PendingAuthorization) async throws

    /// Removes and returns the unexpired request for `state`; `nil` when unknown, expired or already
    /// consumed. Of two concurrent calls for one state, at most one gets it.
    func consume(state: String, now: Date) async throws -> PendingAuthorization?

    /// Claims an authorization code (by its hash); `false` when it was claimed before.
    func claimCode(hash: String, now: Date) async throws -> Bool

    /// Deletes expired requests and code claims older than `codesBefore`; returns how many rows.
    @discardableResult
    func purgeExpired(now: Date, codesBefore: Date) async throws -> Int
}

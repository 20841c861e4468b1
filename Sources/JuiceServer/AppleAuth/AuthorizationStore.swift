import Foundation

/// Single-use values of Sign in with Apple, enforced by the database: pending requests (`state` +
/// `nonce`) are consumed by an atomic delete; authorization codes and native nonces are spent by
/// inserting their keys under a unique constraint (`spent_values`).
protocol AuthorizationStore: Sendable {
    /// Saves a pending request.
    func save(_ request: PendingAuthorization) async throws

    /// Removes and returns the unexpired request for `state`; `nil` when unknown, expired or already
    /// consumed. Of two concurrent calls for one state, at most one gets it.
    func consume(state: String, now: Date) async throws -> PendingAuthorization?

    /// Spends single-use values by their ids in `spent_values` (a code's SHA-256 hex, ``NativeNonces/spentValueID(nonceHash:)``),
    /// all in one statement; returns the keys that had not been spent before. Of two concurrent calls
    /// for one key, at most one gets it back.
    func spend(_ keys: [String], at now: Date) async throws -> Set<String>

    /// Deletes expired requests and values spent before `spentBefore`; returns how many rows.
    @discardableResult
    func purgeExpired(now: Date, spentBefore: Date) async throws -> Int
}

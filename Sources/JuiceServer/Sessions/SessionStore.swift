import Foundation

/// Where sessions live. Sessions are started by the account operations (see ``AccountRepository``)
/// in the same transaction as the account change; this protocol reads and ends them.
protocol SessionStore: Sendable {
    /// The unexpired session a token proves, or `nil`.
    func session(token: String, now: Date) async throws -> Session?

    /// Ends one session (signing out). Ending an unknown session does nothing.
    func end(sessionID: String) async throws

    /// Ends every session of an account; returns how many.
    @discardableResult
    func endAll(accountID: String) async throws -> Int

    /// Deletes sessions expired at `now`; returns how many.
    @discardableResult
    func purgeExpired(now: Date) async throws -> Int
}

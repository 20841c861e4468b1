import Foundation

/// Single-use nonces for native sign-in, enforced by the database.
///
/// The server hands a client a random nonce; the client sends its SHA-256 hex to Apple and the nonce
/// itself back with the identity token. Only the hash is stored, and consuming it is one atomic
/// delete, so a nonce works once across every server instance.
protocol NonceStore: Sendable {
    /// Stores the hash of a new nonce, valid until `expiresAt`.
    func save(hash: String, createdAt: Date, expiresAt: Date) async throws

    /// Removes the nonce with this hash; `true` when it existed and had not expired. Of two
    /// concurrent calls for one nonce, at most one gets `true`.
    func consume(hash: String, now: Date) async throws -> Bool

    /// Removes the nonces that expired by `now` (the periodic ``ExpiryPurge``); how many.
    @discardableResult
    func purgeExpired(now: Date) async throws -> Int
}

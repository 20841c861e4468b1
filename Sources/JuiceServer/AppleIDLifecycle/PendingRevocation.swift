import Foundation

/// A refresh token of a deleted account that still has to be revoked at Apple (kept sealed).
struct PendingRevocation: Sendable, Hashable {
    /// The queue entry's id.
    let id: String
    /// The Apple `sub` the token was sealed for.
    let subject: String
    /// The client id the token was issued to.
    let clientID: String
    /// The sealed refresh token (base64).
    let sealedToken: String
    /// Failed attempts so far.
    let attempts: Int
    /// When it is tried next.
    let nextAttemptAt: Date
}

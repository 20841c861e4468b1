import Foundation

/// A refresh token of a deleted account that still has to be revoked at Apple (kept sealed).
public struct PendingRevocation: Sendable, Hashable {
    /// The queue entry's id.
    public let id: String
    /// The Apple `sub` the token was sealed for.
    public let subject: String
    /// The client id the token was issued to.
    public let clientID: String
    /// The sealed refresh token (base64).
    public let sealedToken: String
    /// Failed attempts so far.
    public let attempts: Int
    /// When it is tried next.
    public let nextAttemptAt: Date

    public init(id: String, subject: String, clientID: String, sealedToken: String, attempts: Int, nextAttemptAt: Date) {
        self.id = id
        self.subject = subject
        self.clientID = clientID
        self.sealedToken = sealedToken
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
    }
}

import Foundation

/// How a session was started.
public enum SignInMethod: String, Sendable, Hashable, Codable {
    /// Sign in with Apple.
    case apple
    /// Username and password.
    case password
}

/// A signed-in session. The token that proves it is never stored, only its SHA-256.
public struct Session: Sendable, Hashable {
    /// The session's id (not secret; used to end it and to bind forms).
    public let id: String
    /// The account signed in.
    public let accountID: String
    /// How it was started.
    public let method: SignInMethod
    /// When it was started.
    public let createdAt: Date
    /// When it ends.
    public let expiresAt: Date
    /// When it was last used, as recorded (at most once a minute, see ``Session/seenInterval``).
    public let lastSeenAt: Date?

    /// How often a session's ``lastSeenAt`` is written at most: once a minute, not on every request.
    public static let seenInterval: TimeInterval = 60

    public init(id: String, accountID: String, method: SignInMethod, createdAt: Date, expiresAt: Date, lastSeenAt: Date? = nil) {
        self.id = id
        self.accountID = accountID
        self.method = method
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastSeenAt = lastSeenAt
    }

    /// Whether a use at `now` should be recorded.
    public func needsSeenUpdate(now: Date) -> Bool {
        now.timeIntervalSince(lastSeenAt ?? createdAt) >= Self.seenInterval
    }
}

/// A session about to be started: its id, token hash and lifetime, waiting for the account.
public struct SessionDraft: Sendable, Hashable {
    /// The session id.
    public let id: String
    /// SHA-256 (hex) of the token.
    public let tokenHash: String
    /// How it is started.
    public let method: SignInMethod
    /// When it starts.
    public let createdAt: Date
    /// When it ends.
    public let expiresAt: Date

    public init(id: String, tokenHash: String, method: SignInMethod, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.tokenHash = tokenHash
        self.method = method
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The session once it belongs to `accountID`.
    public func session(accountID: String) -> Session {
        Session(id: id, accountID: accountID, method: method, createdAt: createdAt, expiresAt: expiresAt)
    }
}

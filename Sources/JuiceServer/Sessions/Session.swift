import Foundation

/// How a session was started.
enum SignInMethod: String, Sendable, Hashable, Codable {
    /// Sign in with Apple.
    case apple
    /// Username and password.
    case password
    /// A passkey (WebAuthn).
    case passkey
}

/// A signed-in session. The token that proves it is never stored, only its SHA-256.
struct Session: Sendable, Hashable {
    /// The session's id (not secret; used to end it and to bind forms).
    let id: String
    /// The account signed in.
    let accountID: String
    /// How it was started.
    let method: SignInMethod
    /// When it was started.
    let createdAt: Date
    /// When it ends.
    let expiresAt: Date
    /// When it was last used, as recorded (at most once a minute, see ``Session/seenInterval``).
    var lastSeenAt: Date? = nil

    /// How often a session's ``lastSeenAt`` is written at most: once a minute, not on every request.
    static let seenInterval: TimeInterval = 60

    /// Whether a use at `now` should be recorded.
    func needsSeenUpdate(now: Date) -> Bool {
        now.timeIntervalSince(lastSeenAt ?? createdAt) >= Self.seenInterval
    }
}

/// A session about to be started: its id, token hash and lifetime, waiting for the account.
struct SessionDraft: Sendable, Hashable {
    /// The session id.
    let id: String
    /// SHA-256 (hex) of the token.
    let tokenHash: String
    /// How it is started.
    let method: SignInMethod
    /// When it starts.
    let createdAt: Date
    /// When it ends.
    let expiresAt: Date

    /// The session once it belongs to `accountID`.
    func session(accountID: String) -> Session {
        Session(id: id, accountID: accountID, method: method, createdAt: createdAt, expiresAt: expiresAt)
    }
}

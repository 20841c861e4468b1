import Foundation

/// What a verified passkey sign-in writes: the challenge spent, the passkey's new counter and backup
/// state (only over the counter the assertion was checked against), and the session.
struct PasskeySignInRecord: Sendable {
    /// The passkey used.
    var credentialID: [UInt8]
    /// Its account, which the session is for.
    var accountID: String
    /// The counter the assertion was checked against: the update happens only while it is still stored.
    var previousSignCount: UInt32
    /// The assertion's counter.
    var signCount: UInt32
    /// The assertion's BS flag.
    var backedUp: Bool
    /// The challenge's ``PasskeyCeremonies/spentValueID(challenge:)``.
    var challengeSpentValueID: String
    /// The session to start.
    var session: SessionDraft
    /// When.
    var at: Date
}

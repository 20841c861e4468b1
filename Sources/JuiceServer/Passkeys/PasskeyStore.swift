import Foundation
import WebAuthn

/// Where passkeys, their accounts' user handles and the ceremonies' challenges are kept.
protocol PasskeyStore: Sendable {
    /// Stores a new challenge.
    func saveChallenge(_ challenge: PasskeyChallenge) async throws
    /// Takes the challenge for `purpose` out of the store in one statement, so that it works once
    /// across every instance; throws ``PasskeyError`` `challenge_unknown` when it was never issued,
    /// was already used or is for the other ceremony, `challenge_expired` when its time is over.
    func consumeChallenge(_ challenge: [UInt8], purpose: PasskeyChallenge.Purpose, now: Date) async throws -> PasskeyChallenge
    /// Removes the challenges whose time is over; returns how many.
    @discardableResult func purgeExpiredChallenges(now: Date) async throws -> Int

    /// The account's user handle, created from `candidate` when it has none yet.
    func userHandle(accountID: String, candidate: [UInt8]) async throws -> [UInt8]

    /// Creates a passkey-first account in one transaction: spends the sign-up's challenge, inserts the
    /// account (with its username, or none), its user handle, the passkey and the session, and reads
    /// the account back. A refusal leaves nothing behind.
    /// - Throws: ``PasskeyError`` `challenge_unknown` (the challenge was spent: a replayed finish),
    ///   `credential_exists`; ``AccountStoreError/usernameTaken`` (taken since the options were issued).
    func createAccount(_ signUp: PasskeyAccountDraft, session: SessionDraft) async throws -> Account

    /// Stores a new passkey; throws ``PasskeyError`` `credential_exists` when its id is taken.
    func add(_ credential: PasskeyCredential) async throws
    /// The passkey with `credentialID`, whichever account it belongs to.
    func credential(id credentialID: [UInt8]) async throws -> PasskeyCredential?
    /// The account's passkeys, oldest first.
    func credentials(accountID: String) async throws -> [PasskeyCredential]
    /// Records a sign-in with the passkey: the new counter, BS and the time, only while the stored
    /// counter is still `previousSignCount` (so two assertions racing with one counter cannot both
    /// succeed). Returns whether it was recorded.
    func recordUse(
        credentialID: [UInt8], previousSignCount: UInt32, signCount: UInt32, backedUp: Bool, at now: Date
    ) async throws -> Bool
    /// A verified sign-in's writes, all in one transaction: spends the challenge (``PasskeyError``
    /// `challenge_unknown` when it was spent before), records the use as ``recordUse(credentialID:previousSignCount:signCount:backedUp:at:)``
    /// does (`counter_regressed` when the counter moved meanwhile) and starts the session. Returns the
    /// account as stored; when any step fails, nothing is written.
    func completeSignIn(_ record: PasskeySignInRecord) async throws -> Account
    /// Renames the account's passkey; returns whether it had one with that id.
    func rename(credentialID: [UInt8], accountID: String, to name: String) async throws -> Bool
    /// Removes the account's passkey, unless it is the account's last way to sign in (no password,
    /// no Apple ID, no other passkey).
    func remove(credentialID: [UInt8], accountID: String) async throws -> PasskeyRemoval
}

/// What ``PasskeyStore/remove(credentialID:accountID:)`` did.
enum PasskeyRemoval: Sendable, Equatable {
    case removed
    /// The account has no passkey with that id.
    case notFound
    /// Refused: it is the account's last way to sign in.
    case lastSignInMethod
}

/// A passkey-first account about to be created (``PasskeyStore/createAccount(_:session:)``).
struct PasskeyAccountDraft: Sendable, Equatable {
    /// The verified passkey, its ``PasskeyCredential/accountID`` the new account's id and its user
    /// handle the one the options gave.
    var credential: PasskeyCredential
    /// The normalized username, or `nil` for an account without one.
    var username: String?
    /// The sign-up challenge's key in `spent_values` (``PasskeySignUpChallenges/spentValueID(challenge:)``).
    var spentValueID: String
    /// When the account is created.
    var at: Date
}

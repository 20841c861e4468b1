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

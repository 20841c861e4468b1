import AppleSignIn
import Foundation

/// Accounts, their Apple IDs and password credentials.
///
/// Operations that start a session take the session to start (``SessionDraft``) so that the account
/// change and the session are one transaction.
protocol AccountRepository: Sendable {
    /// The account with `id`.
    func account(id: String) async throws -> Account?

    /// The account linked to the Apple ID `subject`.
    func account(appleSubject subject: String) async throws -> Account?

    /// The stored password credential for a normalized username.
    func passwordCredential(username: String) async throws -> StoredPasswordCredential?

    /// Creates a password account and starts its session.
    /// - Throws: ``AccountStoreError/usernameTaken`` when the username exists.
    func createPasswordAccount(username: String, passwordHash: String, session: SessionDraft) async throws -> (Account, Session)

    /// Starts a session for an existing account (password sign-in).
    func startSession(_ draft: SessionDraft, accountID: String) async throws -> Session

    /// Finds or creates the account of an Apple sign-in, applies its data and starts a session.
    ///
    /// - An existing Apple ID: its email, relay flag, real-user status and refresh token are updated;
    ///   its name is filled only where empty.
    /// - A new Apple ID with `linkTo`: linked to that account (refused if it already has another Apple ID).
    /// - A new Apple ID otherwise: a new account.
    /// - Throws: ``AccountStoreError/appleIDBelongsToAnotherAccount`` when `linkTo` names another account than the Apple ID's.
    func completeAppleSignIn(
        _ signIn: AppleSignInRecord, linkTo accountID: String?, replacingSession: String?, session: SessionDraft
    ) async throws
        -> AppleSignInResult

    /// The Apple ID of an account with its sealed refresh token (to validate or revoke at Apple).
    func appleCredential(accountID: String) async throws -> StoredAppleCredential?

    /// Deletes an account with its identities, credentials and sessions; returns what Apple must be told.
    ///
    /// A stored refresh token is queued for revocation (`pending_revocations`, still sealed) in the
    /// same transaction, so the revocation survives a crash or an unreachable Apple.
    func deleteAccount(id: String, at: Date) async throws -> DeletedAccount?
}

/// A stored password credential.
struct StoredPasswordCredential: Sendable, Hashable {
    /// The account.
    let accountID: String
    /// The normalized username.
    let username: String
    /// The bcrypt hash.
    let passwordHash: String
}

/// What a verified Apple sign-in brings: the token's claims, the once-only `user` data, and the
/// sealed refresh token from the code exchange.
struct AppleSignInRecord: Sendable, Hashable {
    /// `sub`.
    var subject: String
    /// The client id (`aud`).
    var clientID: String
    /// The token's email, if any.
    var email: String?
    /// Whether the email is a relay address.
    var isPrivateEmail: Bool?
    /// The real-user status, if sent.
    var realUserStatus: RealUserStatus?
    /// Given name from the once-only `user` data (or a device's `fullName`).
    var givenName: String?
    /// Family name, likewise.
    var familyName: String?
    /// The refresh token sealed with ``RefreshTokenCipher``, base64.
    var sealedRefreshToken: String?
    /// When the sign-in happened.
    var at: Date
    /// The token's `transfer_sub` (during the 60 days after an app transfer): the account that had
    /// this transfer identifier (or this `sub`) before the transfer is re-keyed to ``subject``.
    var transferSubject: String? = nil
}

/// The outcome of ``AccountRepository/completeAppleSignIn(_:linkTo:replacingSession:session:)``.
struct AppleSignInResult: Sendable, Hashable {
    /// The signed-in account, as stored after the sign-in.
    let account: Account
    /// The session started.
    let session: Session
    /// Whether the account was created now.
    let createdAccount: Bool
    /// Whether the Apple ID was linked to an existing account now.
    let linked: Bool
}

/// What remains to do at Apple after an account is deleted.
struct DeletedAccount: Sendable, Hashable {
    /// The deleted account's id.
    let accountID: String
    /// The Apple ID's client id and sealed refresh token, if one was stored.
    let appleClientID: String?
    /// The sealed refresh token (base64), to revoke.
    let sealedRefreshToken: String?
    /// The Apple ID's `sub`, if linked.
    let appleSubject: String?
    /// The queued revocation (`pending_revocations` id), when a refresh token was stored.
    let pendingRevocationID: String?
}

/// An Apple ID's stored credential.
struct StoredAppleCredential: Sendable, Hashable {
    /// `sub`.
    let subject: String
    /// The client id the refresh token was issued to.
    let clientID: String
    /// The sealed refresh token (base64), if Apple gave one.
    let sealedRefreshToken: String?
}

import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings
import WebAuthn

/// Signing up with a passkey alone: an account with a username (or none) and a passkey, no password
/// (the server half of Apple's Account Creation API and Android's Credential Manager create flow).
///
/// ``begin(username:address:)`` writes nothing: its challenge is minted (``PasskeySignUpChallenges``)
/// and bound to the user handle it gives the authenticator and to the username, so an abandoned
/// ceremony leaves nothing behind and a finish naming another username or handle is forged.
/// ``finish(_:userHandle:username:transports:name:)`` verifies the new passkey, then creates the account, its
/// passkey and a session and spends the challenge in one transaction
/// (``PasskeySignUpTransaction/run(_:session:)``): a username taken meanwhile or a replayed finish is
/// refused with nothing written.
struct PasskeySignUp: Sendable {
    let ceremonies: PasskeyCeremonies
    /// Where a username's availability is asked before the ceremony begins.
    let accounts: AccountStore
    let challenges: PasskeySignUpChallenges
    /// The account, its passkey and its session, written in one transaction.
    let transaction: PasskeySignUpTransaction
    /// The password sign-up's throttle: every begun sign-up counts against the client address.
    let signUps: LoginThrottle

    /// Creation options for a new account named `rawUsername` (`nil` or empty: no username; the
    /// authenticator is given a generated name, ``generatedName(userHandle:)``).
    /// - Throws: `rate_limited`, `invalid_username`, `username_taken`.
    func begin(username rawUsername: String?, address: String?) async throws -> PasskeyCeremonies.RegistrationOptions {
        if let wait = await signUps.retryAfter(username: "", address: address) { throw ServerError.tooManySignUps(retryAfter: wait) }
        await signUps.recordFailure(username: "", address: address)
        let username = try Self.username(rawUsername)
        if let username, try await accounts.isUsernameTaken(username) { throw AccountStoreError.usernameTaken }
        let handle = ceremonies.random.bytes(32)
        guard let challenge = challenges.mint(userHandle: handle, username: username) else { throw ServerError.internalError() }
        let name = username ?? Self.generatedName(userHandle: handle)
        return ceremonies.registrationOptions(challenge: challenge, userHandle: handle, name: name, displayName: name, excluding: [])
    }

    /// Creates the account from the authenticator's answer to ``begin(username:address:)``'s options;
    /// `userHandle` and `username` are the ones those options gave (`user.id`; the username sent, or
    /// `nil`).
    /// - Throws: ``PasskeyError`` (`challenge_unknown`: not issued for this handle and username, or
    ///   already used; `challenge_expired`: abandoned too long; any registration refusal;
    ///   `credential_exists`), ``AccountStoreError/usernameTaken``.
    func finish(
        _ response: RegistrationResponse, userHandle: [UInt8], username rawUsername: String?, transports: [String], name: String?
    ) async throws -> (token: String, account: Account, session: Session) {
        let storedName = try PasskeyCeremonies.registrationName(name)
        let now = ceremonies.time.now
        let username = rawUsername.flatMap { $0.isEmpty ? nil : Username.normalize($0) }
        let challenge = response.clientData.challenge
        switch challenges.check(challenge, userHandle: userHandle, username: username) {
        case .valid: break
        case .forged:
            throw PasskeyError(.challengeUnknown, "the challenge was not issued by this server for a sign-up with this user handle and username")
        case .expired: throw PasskeyError(.challengeExpired, "the sign-up's time is over; begin again")
        }
        let verified = try ceremonies.relyingParty.verifyRegistration(response, challenge: challenge)
        let credential = ceremonies.credential(
            verified, accountID: ceremonies.random.identifier(), userHandle: userHandle, transports: transports, storedName: storedName, at: now)
        let (token, draft) = ceremonies.tokens.issue(.passkey)
        let account = try await transaction.run(
            PasskeyAccountDraft(
                credential: credential, username: username, spentValueID: PasskeySignUpChallenges.spentValueID(challenge: challenge), at: now),
            session: draft)
        return (token, account, draft.session(accountID: account.id))
    }

    /// The normalized username of a sign-up, `nil` for none.
    /// - Throws: ``Username/Problem`` (`invalid_username`).
    static func username(_ raw: String?) throws -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        return try PasswordAccounts.validUsername(raw)
    }

    /// The name an authenticator shows for an account without a username: `account-` and the first 12
    /// hex digits of the user handle's SHA-256 (stable for the handle, and never a chosen username's
    /// concern: it is not stored as one).
    static func generatedName(userHandle: [UInt8]) -> String {
        "account-" + String(SHA256.hash(data: userHandle).hexString.prefix(12))
    }
}

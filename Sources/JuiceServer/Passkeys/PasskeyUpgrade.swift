import AppleSignIn
import Foundation
import Hummingbird
import WebAuthn

/// Automatic passkey upgrades: right after a password sign-in, the account page asks the browser for a
/// conditional create (`navigator.credentials.create({mediation: "conditional"})`), which a passkey
/// manager may answer without a gesture, so the registration may come back with UP clear.
///
/// A framework cannot tell that a password sign-in really just happened (dotnet/aspnetcore #68194);
/// the server can, so it alone decides: options are given, and an answer accepted, only for a session
/// that signed in with a password within ``window`` (checked at both ends), the challenge is bound to
/// that session (another session of the same account cannot finish it), and only such a registration
/// may lack UP. The passkey is recorded as automatic.
struct PasskeyUpgrade: Sendable {
    /// How recent the password sign-in must be.
    static let window: TimeInterval = PasswordChange.freshSignInWindow

    let ceremonies: PasskeyCeremonies

    /// Options for a conditional create, for `signedIn` if it may upgrade now.
    /// - Throws: 403 `upgrade_not_allowed` when the session did not sign in with a password within ``window``.
    func begin(_ signedIn: SignedIn) async throws -> PasskeyCeremonies.RegistrationOptions {
        try check(signedIn)
        return try await ceremonies.beginRegistration(account: signedIn.account, conditionalFor: signedIn.session.id)
    }

    /// Verifies and stores the conditional registration answering ``begin(_:)``'s options, for the same session.
    /// - Throws: `upgrade_not_allowed`, ``PasskeyError`` (`challenge_unknown` for another session's or
    ///   account's challenge, or one issued for an ordinary registration; any registration refusal).
    func finish(_ signedIn: SignedIn, response: RegistrationResponse, transports: [String], name: String?) async throws -> PasskeyCredential {
        try check(signedIn)
        let storedName = try PasskeyCeremonies.registrationName(name)
        let now = ceremonies.time.now
        let challenge = try await ceremonies.consumeChallenge(named: response.clientData, purpose: .conditionalRegistration, now: now)
        guard challenge.accountID == signedIn.account.id, challenge.sessionID == signedIn.session.id else {
            throw PasskeyError(.challengeUnknown, "the automatic upgrade was begun by another session")
        }
        let verified = try ceremonies.relyingParty.verifyRegistration(response, challenge: challenge.challenge, conditional: true)
        let handle = try await ceremonies.store.userHandle(accountID: signedIn.account.id, candidate: ceremonies.random.bytes(32))
        var credential = ceremonies.credential(
            verified, accountID: signedIn.account.id, userHandle: handle, transports: transports, storedName: storedName, at: now)
        credential.automatic = true
        try await ceremonies.store.add(credential)
        return credential
    }

    /// Whether `signedIn` may upgrade now: its session began with a password within ``window``.
    static func allows(_ signedIn: SignedIn, now: Date) -> Bool {
        signedIn.session.method == .password && now.timeIntervalSince(signedIn.session.createdAt) <= window
    }

    private func check(_ signedIn: SignedIn) throws {
        guard Self.allows(signedIn, now: ceremonies.time.now) else {
            throw ServerError(
                .upgradeNotAllowed, status: .forbidden,
                "an automatic passkey upgrade is only for a session that signed in with a password in the last \(Int(Self.window / 60)) minutes")
        }
    }
}

import AppleSignIn
import Foundation
import Hummingbird

/// Changing an account's password, or adding one to an account without (Apple-only or passkey-first).
///
/// - With a password: the current one must match (bcrypt; failures throttled like sign-in).
/// - Without one: no current password, but the session must have started within
///   ``freshSignInWindow`` (a fresh Sign in with Apple or with a passkey), and a username is chosen
///   unless the account has one.
///
/// Either way the new password passes ``PasswordAccounts/checkNewPassword(_:username:current:)``
/// before it is hashed, and every other session of the account ends with the change.
struct PasswordChange: Sendable {
    /// How recent a sign-in must be to add a password without a current one.
    static let freshSignInWindow: TimeInterval = 300

    let passwords: PasswordAccounts
    let accounts: AccountStore
    /// The new password and the other sessions' end, in one transaction.
    let transaction: PasswordChangeTransaction
    let time: TimeSource

    /// Changes (or adds) the password of `signedIn`'s account.
    /// - Throws: ``ServerError`` `invalid_request` (no current password), `invalid_credentials` (wrong
    ///   current password), `rate_limited`, `invalid_password`, `weak_password`,
    ///   `reauthentication_required`, `username_taken`.
    func change(_ signedIn: SignedIn, currentPassword: String?, newPassword: String, username rawUsername: String?, address: String?) async throws {
        if let credential = try await accounts.passwordCredential(accountID: signedIn.account.id) {
            guard let currentPassword, !currentPassword.isEmpty else {
                throw ServerError.invalidRequest("current_password is required to change the password")
            }
            if let wait = await passwords.throttle.retryAfter(username: credential.username, address: address) {
                throw ServerError.rateLimited(retryAfter: wait)
            }
            try PasswordAccounts.checkNewPassword(newPassword, username: credential.username, current: currentPassword)
            let matches = try await passwords.hasher.verify(currentPassword, hash: credential.passwordHash)
            guard matches else {
                await passwords.throttle.recordFailure(username: credential.username, address: address)
                throw ServerError(.invalidCredentials, status: .unauthorized, "the current password is incorrect")
            }
            await passwords.throttle.recordSuccess(username: credential.username, address: address)
            let hash = try await passwords.hasher.hash(newPassword)
            try await transaction.run(
                accountID: signedIn.account.id, username: nil, passwordHash: hash, keepingSession: signedIn.session.id, at: time.now)
        } else {
            guard time.now.timeIntervalSince(signedIn.session.createdAt) <= Self.freshSignInWindow else {
                throw ServerError(
                    .reauthenticationRequired, status: .forbidden,
                    "sign in again (within the last \(Int(Self.freshSignInWindow / 60)) minutes) to add a password")
            }
            // A passkey-first account signs in with the username it chose; any other one is chosen now.
            let username: String
            if let existing = signedIn.account.username {
                username = existing
            } else {
                guard let rawUsername, !rawUsername.isEmpty else { throw ServerError.invalidRequest("username is required to add a password") }
                username = try PasswordAccounts.validUsername(rawUsername)
            }
            try PasswordAccounts.checkNewPassword(newPassword, username: username)
            let hash = try await passwords.hasher.hash(newPassword)
            try await transaction.run(
                accountID: signedIn.account.id, username: username, passwordHash: hash, keepingSession: signedIn.session.id, at: time.now)
        }
    }
}

import AppleSignIn
import Foundation
import Hummingbird

/// Password sign-up and sign-in: validation, bcrypt, rate limiting and one answer for every failure.
struct PasswordAccounts: Sendable {
    /// The shortest password accepted.
    static let minimumPasswordLength = 8
    /// bcrypt reads at most 72 bytes; longer passwords are refused rather than silently truncated.
    static let maximumPasswordBytes = PasswordBytes.maximum

    let accounts: AccountStore
    /// The account, its password and its session, written in one transaction.
    let signUpTransaction: PasswordSignUpTransaction
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let tokens: SessionTokens
    /// Sign-up attempts per client address (every attempt counts, taken or not: a sign-up answers
    /// whether a username exists, and each costs a bcrypt hash). Its ``LoginThrottle/Limits/perAddress``
    /// is the limit; sign-ups are counted under one empty username.
    let signUps: LoginThrottle

    /// The stored form of a username (``Username/normalize(_:)``).
    static func normalize(username: String) -> String {
        Username.normalize(username)
    }

    /// Creates an account and signs it in; at most ``signUps``' limit of attempts per client address
    /// within its window.
    /// - Throws: `rate_limited` (429 with `Retry-After`), `invalid_username`, `password_invalid_characters`, `invalid_password` (too short),
    ///   `password_too_long`, `weak_password`, `username_taken`.
    func signUp(
        username rawUsername: String, password: String, address: String?
    ) async throws -> (sessionToken: String, account: Account, session: Session) {
        if let wait = await signUps.retryAfter(username: "", address: address) { throw ServerError.tooManySignUps(retryAfter: wait) }
        await signUps.recordFailure(username: "", address: address)
        let username = try Self.validUsername(rawUsername)
        try Self.checkNewPassword(password, username: username)
        let hash = try await hasher.hash(password)
        let (sessionToken, draft) = tokens.issue(.password)
        let (account, session) = try await signUpTransaction.run(username: username, passwordHash: hash, session: draft)
        return (sessionToken, account, session)
    }

    /// The normalized form of a username a person chooses.
    /// - Throws: ``Username/Problem`` (400 `invalid_username`) when it breaks a rule.
    static func validUsername(_ rawUsername: String) throws -> String {
        try Username.validate(rawUsername)
    }

    /// Checks a new password before it reaches bcrypt: its characters and length (``PasswordBytes``:
    /// bcrypt must see all of it), then ``PasswordWeakness``.
    /// - Throws: ``ServerError`` `password_invalid_characters` (a control character such as NUL),
    ///   `invalid_password` (too short), `password_too_long` (over 72 UTF-8 bytes), `weak_password`
    ///   (the reason names the rule), `internal_error` if the list of common passwords is missing from the build.
    static func checkNewPassword(_ password: String, username: String?, current: String? = nil) throws {
        guard !PasswordBytes.hasControlCharacters(password) else {
            throw ServerError(
                .passwordInvalidCharacters, status: .badRequest, "a password may not contain control characters (such as NUL, tab or a line break)")
        }
        guard password.count >= minimumPasswordLength else {
            throw ServerError(.invalidPassword, status: .badRequest, "a password has at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw ServerError(
                .passwordTooLong, status: .badRequest, "a password has at most \(maximumPasswordBytes) bytes in UTF-8 (bcrypt reads no more)")
        }
        if let current, current == password { throw ServerError(.weakPassword, status: .badRequest, PasswordWeakness.unchanged.reason) }
        guard case .success(let list) = CommonPasswords.bundled else { throw ServerError.internalError() }
        if let weakness = PasswordWeakness.check(password, username: username, list: list) {
            throw ServerError(.weakPassword, status: .badRequest, weakness.reason)
        }
    }

    /// Signs in; every failure (unknown name, wrong password, a password bcrypt would cut short) is the
    /// same `invalid_credentials`, after the same bcrypt work.
    /// - Throws: ``ServerError`` `invalid_credentials` or `rate_limited`.
    func signIn(
        username rawUsername: String, password: String, address: String?
    ) async throws -> (sessionToken: String, account: Account, session: Session) {
        let username = Self.normalize(username: rawUsername)
        if let wait = await throttle.retryAfter(username: username, address: address) { throw ServerError.rateLimited(retryAfter: wait) }
        // A password bcrypt would cut short never matches, after the same work (``PasswordHasher/verify(_:hash:)``).
        let credential = username.isEmpty ? nil : try await accounts.passwordCredential(username: username)
        let matches = try await hasher.verify(password, hash: credential?.passwordHash)
        guard matches, let credential else {
            await throttle.recordFailure(username: username, address: address)
            throw ServerError(.invalidCredentials, status: .unauthorized, "the username or password is incorrect")
        }
        await throttle.recordSuccess(username: username, address: address)
        let (sessionToken, draft) = tokens.issue(.password)
        let session = try await accounts.startSession(draft, accountID: credential.accountID)
        guard let account = try await accounts.account(id: credential.accountID) else { throw ServerError.unauthorized() }
        return (sessionToken, account, session)
    }
}

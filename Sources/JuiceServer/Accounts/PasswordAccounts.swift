import AppleSignIn
import Foundation
import Hummingbird

/// Password sign-up and sign-in: validation, bcrypt, rate limiting and one answer for every failure.
struct PasswordAccounts: Sendable {
    /// The shortest password accepted.
    static let minimumPasswordLength = 8
    /// bcrypt reads at most 72 bytes; longer passwords are refused rather than silently truncated.
    static let maximumPasswordBytes = 72

    let accounts: any AccountRepository
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let tokens: SessionTokens

    /// The stored form of a username (``Username/normalize(_:)``).
    static func normalize(username: String) -> String {
        Username.normalize(username)
    }

    /// Creates an account and signs it in.
    /// - Throws: `invalid_username`, `invalid_password` (length rules), `weak_password`, `username_taken`.
    func signUp(username rawUsername: String, password: String) async throws -> (token: String, account: Account, session: Session) {
        let username = try Self.validUsername(rawUsername)
        try Self.checkNewPassword(password, username: username)
        let hash = try await hasher.hash(password)
        let (token, draft) = tokens.issue(.password)
        let (account, session) = try await accounts.createPasswordAccount(username: username, passwordHash: hash, session: draft)
        return (token, account, session)
    }

    /// The normalized form of a username a person chooses.
    /// - Throws: ``Username/Problem`` (400 `invalid_username`) when it breaks a rule.
    static func validUsername(_ rawUsername: String) throws -> String {
        try Username.validate(rawUsername)
    }

    /// Checks a new password before it reaches bcrypt: its length, then ``PasswordWeakness``.
    /// - Throws: ``ServerError`` `invalid_password` (length), `weak_password` (the reason names the
    ///   rule), `internal_error` if the list of common passwords is missing from the build.
    static func checkNewPassword(_ password: String, username: String?, current: String? = nil) throws {
        guard password.count >= minimumPasswordLength else {
            throw ServerError(.invalidPassword, status: .badRequest, "a password has at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw ServerError(.invalidPassword, status: .badRequest, "a password has at most \(maximumPasswordBytes) bytes")
        }
        if let current, current == password { throw ServerError(.weakPassword, status: .badRequest, PasswordWeakness.unchanged.reason) }
        guard case .success(let list) = CommonPasswords.bundled else { throw ServerError.internalError() }
        if let weakness = PasswordWeakness.check(password, username: username, list: list) {
            throw ServerError(.weakPassword, status: .badRequest, weakness.reason)
        }
    }

    /// Signs in; every failure (unknown name, wrong password) is the same `invalid_credentials`.
    /// - Throws: ``ServerError`` `invalid_credentials` or `rate_limited`.
    func signIn(
        username rawUsername: String, password: String, address: String?
    ) async throws -> (token: String, account: Account, session: Session) {
        let username = Self.normalize(username: rawUsername)
        if let wait = await throttle.retryAfter(username: username, address: address) { throw ServerError.rateLimited(retryAfter: wait) }
        let credential = username.isEmpty || password.utf8.count > 1024 ? nil : try await accounts.passwordCredential(username: username)
        let matches = try await hasher.verify(password, hash: credential?.passwordHash)
        guard matches, let credential else {
            await throttle.recordFailure(username: username, address: address)
            throw ServerError(.invalidCredentials, status: .unauthorized, "the username or password is incorrect")
        }
        await throttle.recordSuccess(username: username, address: address)
        let (token, draft) = tokens.issue(.password)
        let session = try await accounts.startSession(draft, accountID: credential.accountID)
        guard let account = try await accounts.account(id: credential.accountID) else { throw ServerError.unauthorized() }
        return (token, account, session)
    }
}

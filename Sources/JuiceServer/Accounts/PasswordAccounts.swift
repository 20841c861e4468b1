import AppleSignIn
import Foundation
import Hummingbird

/// Password sign-up and sign-in: validation, bcrypt, rate limiting and one answer for every failure.
struct PasswordAccounts: Sendable {
    /// The shortest password accepted.
    static let minimumPasswordLength = 8
    /// bcrypt reads at most 72 bytes; longer passwords are refused rather than silently truncated.
    static let maximumPasswordBytes = 72

    private let accounts: any AccountRepository
    private let hasher: PasswordHasher
    private let throttle: LoginThrottle
    private let tokens: SessionTokens

    init(accounts: any AccountRepository, hasher: PasswordHasher, throttle: LoginThrottle, tokens: SessionTokens) {
        self.accounts = accounts
        self.hasher = hasher
        self.throttle = throttle
        self.tokens = tokens
    }

    /// The stored form of a username: trimmed, lowercased.
    static func normalize(username: String) -> String {
        username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Creates an account and signs it in.
    /// - Throws: ``ServerError`` `invalid_password` (rules), `username_taken`.
    func signUp(username rawUsername: String, password: String) async throws -> (token: String, account: Account, session: Session) {
        let username = Self.normalize(username: rawUsername)
        guard (3...64).contains(username.count),
            username.unicodeScalars.allSatisfy({ !CharacterSet.whitespacesAndNewlines.contains($0) && $0.value >= 0x20 })
        else {
            throw ServerError(.invalidPassword, status: .badRequest, "a username has 3 to 64 characters and no spaces")
        }
        guard password.count >= Self.minimumPasswordLength else {
            throw ServerError(.invalidPassword, status: .badRequest, "a password has at least \(Self.minimumPasswordLength) characters")
        }
        guard password.utf8.count <= Self.maximumPasswordBytes else {
            throw ServerError(.invalidPassword, status: .badRequest, "a password has at most \(Self.maximumPasswordBytes) bytes")
        }
        let hash = try await hasher.hash(password)
        let (token, draft) = tokens.issue(.password)
        let (account, session) = try await accounts.createPasswordAccount(username: username, passwordHash: hash, session: draft)
        return (token, account, session)
    }

    /// Signs in; every failure (unknown name, wrong password) is the same `invalid_credentials`.
    /// - Throws: ``ServerError`` `invalid_credentials` or `rate_limited`.
    func signIn(
        username rawUsername: String, password: String, address: String?
    ) async throws -> (token: String, account: Account, session: Session) {
        let username = Self.normalize(username: rawUsername)
        guard await throttle.allows(username: username, address: address) else {
            throw ServerError(.rateLimited, status: .tooManyRequests, "too many failed attempts; wait a few minutes and try again")
        }
        let credential = username.isEmpty || password.utf8.count > 1024 ? nil : try await accounts.passwordCredential(username: username)
        let matches = try await hasher.verify(password, hash: credential?.passwordHash)
        guard matches, let credential else {
            await throttle.recordFailure(username: username, address: address)
            throw ServerError(.invalidCredentials, status: .unauthorized, "the username or password is incorrect")
        }
        await throttle.recordSuccess(username: username)
        let (token, draft) = tokens.issue(.password)
        let session = try await accounts.startSession(draft, accountID: credential.accountID)
        guard let account = try await accounts.account(id: credential.accountID) else { throw ServerError.unauthorized() }
        return (token, account, session)
    }
}

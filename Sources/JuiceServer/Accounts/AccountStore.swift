import AppleSignIn
import Foundation
import Hummingbird
import SQLKit

/// Accounts as the pages and the API read them (`accounts` with the username, `apple_identities`,
/// `password_credentials`), and a password sign-in's session. The writes that span tables are the use
/// cases' transactions: ``AppleSignInTransaction``, ``PasswordSignUpTransaction``,
/// ``AccountDeletionTransaction``, ``PasskeySignUpTransaction``, ``PasskeySignInTransaction``.
struct AccountStore {
    private let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    /// The account with `id`.
    func account(id: String) async throws -> Account? {
        try await database.read { sql in try await AccountsTable.load(where: "a.id", equals: id, on: sql) }
    }

    /// The account linked to the Apple ID `subject`.
    func account(appleSubject subject: String) async throws -> Account? {
        try await database.read { sql in try await AccountsTable.load(where: "i.subject", equals: subject, on: sql) }
    }

    /// The stored password credential for a normalized username.
    func passwordCredential(username: String) async throws -> StoredPasswordCredential? {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT a.id AS account_id, a.username, p.password_hash FROM accounts a
                JOIN password_credentials p ON p.account_id = a.id WHERE a.username = \(bind: username)
                """
            ).first()
                .map {
                    StoredPasswordCredential(
                        accountID: try $0.decode(column: "account_id", as: String.self),
                        username: try $0.decode(column: "username", as: String.self),
                        passwordHash: try $0.decode(column: "password_hash", as: String.self)
                    )
                }
        }
    }

    /// The account's password credential, if it has one.
    func passwordCredential(accountID: String) async throws -> StoredPasswordCredential? {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT p.account_id, a.username, p.password_hash FROM password_credentials p
                JOIN accounts a ON a.id = p.account_id WHERE p.account_id = \(bind: accountID)
                """
            ).first()
                .map {
                    StoredPasswordCredential(
                        accountID: try $0.decode(column: "account_id", as: String.self),
                        username: try $0.decode(column: "username", as: String?.self) ?? "",
                        passwordHash: try $0.decode(column: "password_hash", as: String.self)
                    )
                }
        }
    }

    /// Whether an account has the normalized `username` (with or without a password).
    func isUsernameTaken(_ username: String) async throws -> Bool {
        try await database.read { sql in
            try await sql.select().column("id").from("accounts").where("username", .equal, username).first() != nil
        }
    }

    /// Starts a session for an existing account (password sign-in).
    func startSession(_ draft: SessionDraft, accountID: String) async throws -> Session {
        try await database.transaction { sql in
            try await SessionsTable.insert(draft, accountID: accountID, on: sql)
            return draft.session(accountID: accountID)
        }
    }

    /// The Apple ID of an account with its sealed refresh token (to validate or revoke at Apple).
    func appleCredential(accountID: String) async throws -> StoredAppleCredential? {
        try await database.read { sql in
            try await sql.select().columns("subject", "client_id", "refresh_token").from("apple_identities")
                .where("account_id", .equal, accountID).first()
                .map {
                    StoredAppleCredential(
                        subject: try $0.decode(column: "subject", as: String.self),
                        clientID: try $0.decode(column: "client_id", as: String.self),
                        sealedRefreshToken: try $0.decode(column: "refresh_token", as: String?.self)
                    )
                }
        }
    }
}

import Foundation
import SQLKit

/// A password sign-up's writes, in one transaction: the account with its username, the password
/// credential and the session.
struct PasswordSignUpTransaction {
    let database: any JuiceDatabase
    let random: ServerRandom

    /// Creates a password account and starts its session; returns both.
    /// - Throws: ``AccountStoreError/usernameTaken`` when the username exists.
    func run(username: String, passwordHash: String, session: SessionDraft) async throws -> (Account, Session) {
        let accountID = random.identifier()
        return try await database.transaction { sql in
            let now = Int64(session.createdAt.timeIntervalSince1970)
            try await AccountsTable.insert(id: accountID, username: username, at: now, on: sql)
            try await sql.insert(into: "password_credentials").columns("account_id", "password_hash", "created_at")
                .values(SQLBind(accountID), SQLBind(passwordHash), SQLBind(now)).run()
            try await SessionsTable.insert(session, accountID: accountID, on: sql)
            guard let account = try await AccountsTable.load(where: "a.id", equals: accountID, on: sql) else {
                throw AccountStoreError.accountMissing
            }
            return (account, session.session(accountID: accountID))
        }
    }
}

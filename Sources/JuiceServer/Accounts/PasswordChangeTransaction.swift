import Foundation
import SQLKit

/// A password change's writes, in one transaction: the new hash (or a new password credential, with a
/// username for an account without one) and the end of every other session of the account.
struct PasswordChangeTransaction {
    let database: any JuiceDatabase

    /// Replaces the account's password hash, or adds a password credential when it has none (the
    /// account keeps its username; one without a username takes `username`), and ends every other
    /// session of the account: one transaction.
    /// - Throws: ``AccountStoreError/usernameTaken`` when adding a username another account has,
    ///   ``AccountStoreError/passwordCredentialMissing`` when the account has no password, no username and none is given.
    func run(accountID: String, username: String?, passwordHash: String, keepingSession sessionID: String, at: Date) async throws {
        try await database.transaction { sql in
            let existing = try await sql.select().column("account_id").from("password_credentials").where("account_id", .equal, accountID).first()
            if existing != nil {
                try await sql.update("password_credentials").set("password_hash", to: SQLBind(passwordHash))
                    .where("account_id", .equal, accountID).run()
            } else {
                // The account keeps the username it has (a passkey-first account chose one); one without
                // a username takes `username`, unless another account has it.
                let stored = try await sql.select().column("username").from("accounts").where("id", .equal, accountID).first()
                guard let stored else { throw AccountStoreError.accountMissing }
                if try stored.decode(column: "username", as: String?.self) == nil {
                    guard let username else { throw AccountStoreError.passwordCredentialMissing }
                    let taken = try await sql.select().column("id").from("accounts").where("username", .equal, username).first()
                    guard taken == nil else { throw AccountStoreError.usernameTaken }
                    try await sql.update("accounts").set("username", to: SQLBind(username)).where("id", .equal, accountID).run()
                }
                try await sql.insert(into: "password_credentials").columns("account_id", "password_hash", "created_at")
                    .values(SQLBind(accountID), SQLBind(passwordHash), SQLBind(Int64(at.timeIntervalSince1970))).run()
            }
            try await SessionsTable.endAll(accountID: accountID, keeping: sessionID, on: sql)
        }
    }
}

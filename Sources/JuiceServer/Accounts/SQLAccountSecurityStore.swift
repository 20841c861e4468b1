import Foundation
import SQLKit

/// ``AccountSecurityStore`` on the `password_credentials`, `sessions` and `accounts` (the username) tables.
struct SQLAccountSecurityStore: AccountSecurityStore {
    let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

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

    func setPassword(accountID: String, username: String?, passwordHash: String, keepingSession sessionID: String, at: Date) async throws {
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
            try await sql.delete(from: "sessions").where("account_id", .equal, accountID).where("id", .notEqual, sessionID).run()
        }
    }

    func activeSessions(accountID: String, now: Date) async throws -> [Session] {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.read { sql in
            try await sql.select().columns("id", "account_id", "method", "created_at", "expires_at", "last_seen_at").from("sessions")
                .where("account_id", .equal, accountID).where("expires_at", .greaterThan, seconds)
                .orderBy("created_at", .descending).orderBy("id").limit(100)
                .all().map(SessionsTable.session(from:))
        }
    }

    func endSession(id: String, accountID: String) async throws -> Bool {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("id", .equal, id).where("account_id", .equal, accountID).returning("id").all().count > 0
        }
    }

    func endOtherSessions(accountID: String, keeping sessionID: String) async throws -> Int {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("account_id", .equal, accountID).where("id", .notEqual, sessionID)
                .returning("id").all().count
        }
    }
}

import Foundation
import SQLKit

/// An account's password and sessions, as its owner manages them, on the `password_credentials`,
/// `sessions` and `accounts` (the username) tables.
struct AccountSecurityStore {
    let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
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

    /// The account's unexpired sessions, newest first (at most 100).
    func activeSessions(accountID: String, now: Date) async throws -> [Session] {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.read { sql in
            try await sql.select().columns("id", "account_id", "method", "created_at", "expires_at", "last_seen_at").from("sessions")
                .where("account_id", .equal, accountID).where("expires_at", .greaterThan, seconds)
                .orderBy("created_at", .descending).orderBy("id").limit(100)
                .all().map(SessionsTable.session(from:))
        }
    }

    /// Ends one of the account's sessions; `false` when the account has no such session.
    func endSession(id: String, accountID: String) async throws -> Bool {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("id", .equal, id).where("account_id", .equal, accountID).returning("id").all().count > 0
        }
    }

    /// Ends every session of the account except `sessionID`; returns how many.
    func endOtherSessions(accountID: String, keeping sessionID: String) async throws -> Int {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("account_id", .equal, accountID).where("id", .notEqual, sessionID)
                .returning("id").all().count
        }
    }
}

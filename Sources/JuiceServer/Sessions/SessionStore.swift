import Foundation
import SQLKit

/// Reads and ends sessions (`sessions`). Sessions are started by the use cases' transactions
/// (``AppleSignInTransaction``, ``PasswordSignUpTransaction``, ``PasskeySignInTransaction`` …) in the
/// same transaction as the account change, through ``SessionsTable``.
struct SessionStore {
    private let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    /// The unexpired session a token proves, or `nil`.
    func session(token: String, now: Date) async throws -> Session? {
        let hash = SessionTokens.hash(token)
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.read { sql in
            try await sql.select().columns(SessionsTable.columns).from("sessions")
                .where("token_hash", .equal, hash).where("expires_at", .greaterThan, seconds)
                .first().map(SessionsTable.session(from:))
        }
    }

    /// The account's unexpired sessions, newest first (at most 100).
    func activeSessions(accountID: String, now: Date) async throws -> [Session] {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.read { sql in
            try await sql.select().columns(SessionsTable.columns).from("sessions")
                .where("account_id", .equal, accountID).where("expires_at", .greaterThan, seconds)
                .orderBy("created_at", .descending).orderBy("id").limit(100)
                .all().map(SessionsTable.session(from:))
        }
    }

    /// Ends one session (signing out); only if it is `accountID`'s, when given. Returns whether it existed:
    /// ending an unknown session does nothing.
    @discardableResult
    func end(sessionID: String, accountID: String? = nil) async throws -> Bool {
        try await database.transaction { sql in try await SessionsTable.end(id: sessionID, accountID: accountID, on: sql) }
    }

    /// Ends every session of an account but `keeping` (none kept when `nil`); returns how many.
    @discardableResult
    func endAll(accountID: String, keeping: String? = nil) async throws -> Int {
        try await database.transaction { sql in try await SessionsTable.endAll(accountID: accountID, keeping: keeping, on: sql) }
    }

    /// Records that a session was used at `at` (its last-seen time).
    func recordSeen(sessionID: String, at: Date) async throws {
        try await database.transaction { sql in
            try await sql.update("sessions").set("last_seen_at", to: SQLBind(Int64(at.timeIntervalSince1970))).where("id", .equal, sessionID).run()
        }
    }

    /// Deletes sessions expired at `now`; returns how many.
    @discardableResult
    func purgeExpired(now: Date) async throws -> Int {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("expires_at", .lessThanOrEqual, seconds).returning("id").all().count
        }
    }

}

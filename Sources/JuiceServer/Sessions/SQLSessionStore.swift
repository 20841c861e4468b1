import Foundation
import SQLKit

/// ``SessionStore`` on the `sessions` table.
struct SQLSessionStore: SessionStore {
    private let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    func session(token: String, now: Date) async throws -> Session? {
        let hash = SessionTokens.hash(token)
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.read { sql in
            try await sql.select().columns("id", "account_id", "method", "created_at", "expires_at", "last_seen_at").from("sessions")
                .where("token_hash", .equal, hash).where("expires_at", .greaterThan, seconds)
                .first().map(SessionsTable.session(from:))
        }
    }

    func end(sessionID: String) async throws {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("id", .equal, sessionID).run()
        }
    }

    @discardableResult
    func endAll(accountID: String) async throws -> Int {
        try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("account_id", .equal, accountID).returning("id").all().count
        }
    }

    func recordSeen(sessionID: String, at: Date) async throws {
        try await database.transaction { sql in
            try await sql.update("sessions").set("last_seen_at", to: SQLBind(Int64(at.timeIntervalSince1970))).where("id", .equal, sessionID).run()
        }
    }

    @discardableResult
    func purgeExpired(now: Date) async throws -> Int {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.transaction { sql in
            try await sql.delete(from: "sessions").where("expires_at", .lessThanOrEqual, seconds).returning("id").all().count
        }
    }

}

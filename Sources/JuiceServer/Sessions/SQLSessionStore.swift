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
                .first().map(Self.session(from:))
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

    /// Inserts a started session (used inside account transactions).
    static func insert(_ draft: SessionDraft, accountID: String, on sql: any SQLDatabase) async throws {
        // SQL text, not a builder: this runs on every sign-in (see docs/performance.md).
        let createdAt = Int64(draft.createdAt.timeIntervalSince1970)
        let expiresAt = Int64(draft.expiresAt.timeIntervalSince1970)
        try await sql.raw(
            """
            INSERT INTO sessions (id, token_hash, account_id, method, created_at, expires_at)
            VALUES (\(bind: draft.id), \(bind: draft.tokenHash), \(bind: accountID), \(bind: draft.method.rawValue), \(bind: createdAt), \(bind: expiresAt))
            """
        ).run()
    }

    static func session(from row: any SQLRow) throws -> Session {
        Session(
            id: try row.decode(column: "id", as: String.self),
            accountID: try row.decode(column: "account_id", as: String.self),
            method: SignInMethod(rawValue: try row.decode(column: "method", as: String.self)) ?? .password,
            createdAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "created_at", as: Int64.self))),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "expires_at", as: Int64.self))),
            lastSeenAt: try row.decode(column: "last_seen_at", as: Int64?.self).map { Date(timeIntervalSince1970: TimeInterval($0)) }
        )
    }
}

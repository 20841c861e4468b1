import Foundation
import SQLKit

/// The statements on `sessions`, in one place: the use cases' transactions run them (a sign-in or sign-up
/// inserts its session in its own transaction; a deletion, a password change or a revocation ends the
/// account's sessions in theirs), and ``SessionStore`` runs them too.
enum SessionsTable {
    /// The columns ``session(from:)`` reads.
    static let columns = ["id", "account_id", "method", "created_at", "expires_at", "last_seen_at"]

    /// Ends every session of `accountID` but `keeping` (none kept when `nil`); returns how many ended.
    @discardableResult
    static func endAll(accountID: String, keeping: String? = nil, on sql: any SQLDatabase) async throws -> Int {
        let delete = sql.delete(from: "sessions").where("account_id", .equal, accountID)
        if let keeping { delete.where("id", .notEqual, keeping) }
        return try await delete.returning("id").all().count
    }

    /// Ends the session `id` (only if it is `accountID`'s, when given); returns whether it existed.
    @discardableResult
    static func end(id: String, accountID: String? = nil, on sql: any SQLDatabase) async throws -> Bool {
        let delete = sql.delete(from: "sessions").where("id", .equal, id)
        if let accountID { delete.where("account_id", .equal, accountID) }
        return try await !delete.returning("id").all().isEmpty
    }

    /// Inserts a started session (inside the transaction of the sign-in or sign-up that starts it).
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

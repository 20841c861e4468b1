import Foundation
import SQLKit

/// The statements on `sessions` that the transactions of other stores run (a sign-in or sign-up inserts its
/// session in its own transaction), in one place; ``SessionStore`` runs them too.
enum SessionsTable {
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

import Foundation
import SQLKit

/// ``NonceStore`` on the `api_nonces` table.
///
/// The statements on the sign-in path are written as SQL text with binds rather than with SQLKit's
/// builders: building and serializing a builder's expression tree cost more than SQLite running the
/// statement (see docs/performance.md).
struct SQLNonceStore: NonceStore {
    private let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    func save(hash: String, createdAt: Date, expiresAt: Date) async throws {
        let created = Int64(createdAt.timeIntervalSince1970)
        let expires = Int64(expiresAt.timeIntervalSince1970)
        try await database.autocommit { sql in
            try await sql.raw(
                "INSERT INTO api_nonces (nonce_hash, created_at, expires_at) VALUES (\(bind: hash), \(bind: created), \(bind: expires))"
            ).run()
        }
    }

    func consume(hash: String, now: Date) async throws -> Bool {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.autocommit { sql in
            // One statement: the row is gone for everyone else once this returns it.
            let row = try await sql.raw("DELETE FROM api_nonces WHERE nonce_hash = \(bind: hash) RETURNING expires_at").first()
            guard let row else { return false }
            return try row.decode(column: "expires_at", as: Int64.self) > seconds
        }
    }

    @discardableResult
    func purgeExpired(now: Date) async throws -> Int {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.autocommit { sql in
            try await sql.delete(from: "api_nonces").where("expires_at", .lessThanOrEqual, seconds).returning("nonce_hash").all().count
        }
    }
}

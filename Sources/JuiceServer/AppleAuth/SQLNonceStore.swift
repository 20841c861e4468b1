import Foundation
import SQLKit

/// ``NonceStore`` on the `api_nonces` table.
struct SQLNonceStore: NonceStore {
    private let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    func save(hash: String, createdAt: Date, expiresAt: Date) async throws {
        let created = Int64(createdAt.timeIntervalSince1970)
        try await database.autocommit { sql in
            try await sql.insert(into: "api_nonces").columns("nonce_hash", "created_at", "expires_at")
                .values(SQLBind(hash), SQLBind(created), SQLBind(Int64(expiresAt.timeIntervalSince1970)))
                .run()
        }
    }

    func consume(hash: String, now: Date) async throws -> Bool {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.autocommit { sql in
            // One statement: the row is gone for everyone else once this returns it.
            let row = try await sql.delete(from: "api_nonces").where("nonce_hash", .equal, hash).returning("expires_at").first()
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

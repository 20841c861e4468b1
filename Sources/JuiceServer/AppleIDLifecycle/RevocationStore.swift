import Foundation
import SQLKit

/// The durable queue of revocations owed to Apple (`pending_revocations`). Entries are added by
/// ``AccountDeletionTransaction`` in the deleting transaction and leave the queue only when Apple
/// confirmed the revocation.
struct RevocationStore {
    private let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    static let columns = ["id", "subject", "client_id", "sealed_token", "attempts", "next_attempt_at"]

    /// One entry by id.
    func revocation(id: String) async throws -> PendingRevocation? {
        try await database.read { sql in
            try await sql.select().columns(Self.columns).from("pending_revocations").where("id", .equal, id).first().map(Self.revocation(from:))
        }
    }

    /// Entries due at `now`, oldest first.
    func revocationsDue(now: Date, limit: Int) async throws -> [PendingRevocation] {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.read { sql in
            try await sql.select().columns(Self.columns).from("pending_revocations")
                .where("next_attempt_at", .lessThanOrEqual, seconds)
                .orderBy("next_attempt_at").limit(max(1, limit))
                .all().map(Self.revocation(from:))
        }
    }

    /// Removes an entry Apple confirmed.
    func complete(id: String) async throws {
        try await database.transaction { sql in
            try await sql.delete(from: "pending_revocations").where("id", .equal, id).run()
        }
    }

    /// Records a failed attempt and when to try again; `error` is a code, never a token.
    func reschedule(id: String, attempts: Int, nextAttemptAt: Date, error: String) async throws {
        try await database.transaction { sql in
            try await sql.update("pending_revocations")
                .set("attempts", to: attempts).set("next_attempt_at", to: Int64(nextAttemptAt.timeIntervalSince1970))
                .set("last_error", to: String(error.prefix(64)))
                .where("id", .equal, id).run()
        }
    }

    /// How many entries wait.
    func pendingCount() async throws -> Int {
        try await database.read { sql in
            try await sql.raw("SELECT COUNT(*) AS pending FROM pending_revocations").first()?.decode(column: "pending", as: Int.self) ?? 0
        }
    }

    static func revocation(from row: any SQLRow) throws -> PendingRevocation {
        PendingRevocation(
            id: try row.decode(column: "id", as: String.self),
            subject: try row.decode(column: "subject", as: String.self),
            clientID: try row.decode(column: "client_id", as: String.self),
            sealedToken: try row.decode(column: "sealed_token", as: String.self),
            attempts: try row.decode(column: "attempts", as: Int.self),
            nextAttemptAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "next_attempt_at", as: Int64.self)))
        )
    }
}

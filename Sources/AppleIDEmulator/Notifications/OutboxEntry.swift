import SQLKit

/// One queued notification and where its delivery stands, as the admin API and the account portal
/// show it (times in Unix seconds).
struct OutboxEntry: Sendable, Encodable {
    let id: Int
    let jti: String
    let audience: String
    let url: String
    let eventType: String
    let event: String
    let appleID: String
    let createdAt: Int64
    let attempts: Int
    /// `delivered`, `failed` (given up) or `pending`.
    let status: String
    let nextAttemptAt: Int64
    let deliveredAt: Int64?
    let failedAt: Int64?
    let lastResult: String?

    enum CodingKeys: String, CodingKey {
        case id, jti, audience, url, event, attempts, status
        case eventType = "type"
        case appleID = "apple_id"
        case createdAt = "created_at"
        case nextAttemptAt = "next_attempt_at"
        case deliveredAt = "delivered_at"
        case failedAt = "failed_at"
        case lastResult = "last_result"
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: Int.self)
        jti = try row.decode(column: "jti", as: String.self)
        audience = try row.decode(column: "audience", as: String.self)
        url = try row.decode(column: "url", as: String.self)
        eventType = try row.decode(column: "event_type", as: String.self)
        event = try row.decode(column: "event", as: String.self)
        appleID = try row.decode(column: "email", as: String.self)
        createdAt = Int64(try row.decode(column: "created_at", as: Double.self))
        attempts = try row.decode(column: "attempts", as: Int.self)
        nextAttemptAt = Int64(try row.decode(column: "next_attempt_at", as: Double.self))
        deliveredAt = try row.decode(column: "delivered_at", as: Double?.self).map { Int64($0) }
        failedAt = try row.decode(column: "failed_at", as: Double?.self).map { Int64($0) }
        lastResult = try row.decode(column: "last_result", as: String?.self)
        status = deliveredAt != nil ? "delivered" : (failedAt != nil ? "failed" : "pending")
    }

    static func list(appleID: String?, in database: any SQLDatabase) async throws -> [OutboxEntry] {
        if let appleID {
            return try await database.raw("SELECT * FROM outbox WHERE email = \(bind: appleID) ORDER BY id").all().map(OutboxEntry.init(row:))
        }
        return try await database.raw("SELECT * FROM outbox ORDER BY id").all().map(OutboxEntry.init(row:))
    }
}

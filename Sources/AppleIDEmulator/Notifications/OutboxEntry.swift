import SQLKit

/// One queued notification and where its delivery stands, as the admin API and the account portal
/// show it (times in Unix seconds).
struct OutboxEntry: Sendable, Codable {
    let id: Int
    let jti: String
    let audience: String
    let url: String
    let eventType: String
    let event: String
    let appleID: String
    let createdAt: UnixSeconds
    let attempts: Int
    /// `delivered`, `failed` (given up) or `pending`.
    let status: String
    let nextAttemptAt: UnixSeconds
    let deliveredAt: UnixSeconds?
    let failedAt: UnixSeconds?
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

    /// The columns of an `outbox` row under the names above, with the status worked out.
    static let columns: SQLQueryString = """
        id, jti, audience, url, event_type AS type, event, email AS apple_id, created_at, attempts, next_attempt_at,
        delivered_at, failed_at, last_result,
        CASE WHEN delivered_at IS NOT NULL THEN 'delivered' WHEN failed_at IS NOT NULL THEN 'failed' ELSE 'pending' END AS status
        """

    static func list(appleID: String?, in database: any SQLDatabase) async throws -> [OutboxEntry] {
        let filter: SQLQueryString = appleID.map { "WHERE email = \(bind: $0)" } ?? ""
        return try await database.raw("SELECT \(columns) FROM outbox \(filter) ORDER BY id").all(decoding: OutboxEntry.self)
    }
}

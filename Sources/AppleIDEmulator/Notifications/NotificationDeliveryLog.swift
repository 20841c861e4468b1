import SQLKit

/// Every attempt to deliver a server-to-server notification, as the admin API and the portal show it
/// (times in Unix seconds): when, to which URL, the HTTP status or the connection error, and when the
/// next attempt is due (`null` once delivered or given up).
struct NotificationDeliveryLog: Sendable, Codable, Hashable {
    let id: Int
    let notificationID: Int
    let type: String
    let audience: String
    let appleID: String
    let url: String
    let attemptedAt: UnixSeconds
    let httpStatus: Int?
    let error: String?
    let nextAttemptAt: UnixSeconds?

    enum CodingKeys: String, CodingKey {
        case id, type, audience, url, error
        case notificationID = "notification_id"
        case appleID = "apple_id"
        case attemptedAt = "attempted_at"
        case httpStatus = "http_status"
        case nextAttemptAt = "next_attempt_at"
    }

    /// The columns of an attempt joined with its notification, under the names above.
    static let columns: SQLQueryString = """
        a.id, a.outbox_id AS notification_id, o.event_type AS type, o.audience, o.email AS apple_id, a.url, a.attempted_at,
        a.http_status, a.error, a.next_attempt_at
        """

    /// Records one attempt; `attemptedAt` is when it started.
    static func record(
        notificationID: Int, url: String, at attemptedAt: Double, result: DeliveryResult, nextAttemptAt: Double?, in database: any SQLDatabase
    ) async throws {
        let status = result.httpStatus
        let error = result.error
        try await database.raw(
            """
            INSERT INTO notification_attempts (outbox_id, attempted_at, url, http_status, error, next_attempt_at)
            VALUES (\(bind: notificationID), \(bind: attemptedAt), \(bind: url), \(bind: status), \(bind: error), \(bind: nextAttemptAt))
            """
        ).run()
    }

    /// Attempts, oldest first, of one Apple ID's notifications, of one notification, or of all.
    static func list(appleID: String?, notificationID: Int? = nil, in database: any SQLDatabase) async throws -> [NotificationDeliveryLog] {
        var conditions: [SQLQueryString] = []
        if let appleID { conditions.append("o.email = \(bind: appleID)") }
        if let notificationID { conditions.append("a.outbox_id = \(bind: notificationID)") }
        let filter: SQLQueryString = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await database.raw(
            "SELECT \(columns) FROM notification_attempts a JOIN outbox o ON o.id = a.outbox_id \(filter) ORDER BY a.id"
        ).all(decoding: NotificationDeliveryLog.self)
    }
}

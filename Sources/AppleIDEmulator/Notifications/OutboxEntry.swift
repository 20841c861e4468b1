import Foundation
import SQLKit

/// One queued notification and where its delivery stands.
struct OutboxEntry: Sendable, Codable {
    let id: Int
    let jti: String
    let audience: String
    let url: String
    let eventType: String
    let event: String
    let appleID: String
    let createdAt: Date
    let attempts: Int
    let nextAttemptAt: Date
    let deliveredAt: Date?
    let failedAt: Date?
    let lastResult: String?

    /// `delivered`, `failed` (given up) or `pending`.
    var status: String {
        deliveredAt != nil ? "delivered" : (failedAt != nil ? "failed" : "pending")
    }

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

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(jti, forKey: .jti)
        try container.encode(audience, forKey: .audience)
        try container.encode(url, forKey: .url)
        try container.encode(eventType, forKey: .eventType)
        try container.encode(event, forKey: .event)
        try container.encode(appleID, forKey: .appleID)
        try container.encode(Int64(createdAt.timeIntervalSince1970), forKey: .createdAt)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(status, forKey: .status)
        try container.encode(Int64(nextAttemptAt.timeIntervalSince1970), forKey: .nextAttemptAt)
        try container.encodeIfPresent(deliveredAt.map { Int64($0.timeIntervalSince1970) }, forKey: .deliveredAt)
        try container.encodeIfPresent(failedAt.map { Int64($0.timeIntervalSince1970) }, forKey: .failedAt)
        try container.encodeIfPresent(lastResult, forKey: .lastResult)
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: Int.self)
        jti = try row.decode(column: "jti", as: String.self)
        audience = try row.decode(column: "audience", as: String.self)
        url = try row.decode(column: "url", as: String.self)
        eventType = try row.decode(column: "event_type", as: String.self)
        event = try row.decode(column: "event", as: String.self)
        appleID = try row.decode(column: "email", as: String.self)
        createdAt = Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self))
        attempts = try row.decode(column: "attempts", as: Int.self)
        nextAttemptAt = Date(timeIntervalSince1970: try row.decode(column: "next_attempt_at", as: Double.self))
        deliveredAt = try row.decode(column: "delivered_at", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        failedAt = try row.decode(column: "failed_at", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        lastResult = try row.decode(column: "last_result", as: String?.self)
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "outbox entries are read from the store only"))
    }

    static func list(appleID: String?, in database: any SQLDatabase) async throws -> [OutboxEntry] {
        if let appleID {
            return try await database.raw("SELECT * FROM outbox WHERE email = \(bind: appleID) ORDER BY id").all().map(OutboxEntry.init(row:))
        }
        return try await database.raw("SELECT * FROM outbox ORDER BY id").all().map(OutboxEntry.init(row:))
    }
}

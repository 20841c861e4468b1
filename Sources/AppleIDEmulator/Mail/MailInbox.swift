import Foundation
import SQLKit

/// Reads what the relay delivered (each Apple ID's inbox) and what it refused.
struct MailInbox: Sendable {
    /// A delivered message as listed: newest first.
    struct Summary: Sendable, Encodable, Equatable {
        let id: String
        let from: String
        let to: String
        let deliveredTo: String
        let subject: String
        let receivedAt: Int64
        let size: Int

        enum CodingKeys: String, CodingKey {
            case id, from, to, subject, size
            case deliveredTo = "delivered_to"
            case receivedAt = "received_at"
        }

        /// The listed columns of a `relayed_mail` row.
        init(row: any SQLRow) throws {
            id = try row.decode(column: "id", as: String.self)
            from = try row.decode(column: "header_from", as: String.self)
            to = try row.decode(column: "relay_email", as: String.self)
            deliveredTo = try row.decode(column: "delivered_to", as: String.self)
            subject = try row.decode(column: "subject", as: String.self)
            receivedAt = Int64(try row.decode(column: "received_at", as: Double.self))
            size = try row.decode(column: "size", as: Int.self)
        }

        /// When it arrived, for pages.
        var receivedDate: Date { Date(timeIntervalSince1970: TimeInterval(receivedAt)) }
    }

    /// One whole message: what the list shows and the rest, in one JSON object.
    struct Message: Sendable, Encodable {
        /// What only the whole message shows.
        struct Details: Sendable, Encodable {
            let appleID: String
            let teamID: String
            let envelopeFrom: String
            let bodyType: String
            let body: String
            let headers: String

            enum CodingKeys: String, CodingKey {
                case body, headers
                case appleID = "apple_id"
                case teamID = "team_id"
                case envelopeFrom = "envelope_from"
                case bodyType = "body_type"
            }
        }

        let summary: Summary
        let details: Details

        func encode(to encoder: any Encoder) throws {
            try summary.encode(to: encoder)
            try details.encode(to: encoder)
        }
    }

    /// A refused attempt and why.
    struct Refusal: Sendable, Encodable {
        let id: Int
        let attemptedAt: Int64
        let envelopeFrom: String
        let recipient: String
        let appleID: String?
        let reply: String
        let reason: String

        enum CodingKeys: String, CodingKey {
            case id, recipient, reply, reason
            case attemptedAt = "attempted_at"
            case envelopeFrom = "envelope_from"
            case appleID = "apple_id"
        }
    }

    let store: EmulatorStore

    /// The Apple ID's delivered mail, newest first (at most `limit`).
    func messages(appleID: String, limit: Int = 200) async throws -> [Summary] {
        let email = appleID.lowercased()
        return try await store.transaction { database in
            try await database.raw(
                """
                SELECT id, header_from, relay_email, delivered_to, subject, received_at, size FROM relayed_mail
                WHERE apple_id = \(bind: email) ORDER BY received_at DESC, rowid DESC LIMIT \(bind: limit)
                """
            ).all().map(Summary.init(row:))
        }
    }

    /// One message, optionally only when it belongs to `appleID` (the portal shows only its own).
    func message(id: String, appleID: String? = nil) async throws -> Message? {
        try await store.transaction { database in
            guard let row = try await database.raw("SELECT * FROM relayed_mail WHERE id = \(bind: id)").first() else { return nil }
            let owner = try row.decode(column: "apple_id", as: String.self)
            if let appleID, appleID.lowercased() != owner { return nil }
            let details = Message.Details(
                appleID: owner, teamID: try row.decode(column: "team_id", as: String.self),
                envelopeFrom: try row.decode(column: "envelope_from", as: String.self),
                bodyType: try row.decode(column: "body_type", as: String.self),
                body: try row.decode(column: "body", as: String.self), headers: try row.decode(column: "headers", as: String.self))
            return Message(summary: try Summary(row: row), details: details)
        }
    }

    /// Refused attempts, newest first, optionally for one Apple ID.
    func refusals(appleID: String?, limit: Int = 200) async throws -> [Refusal] {
        let email = appleID?.lowercased()
        return try await store.transaction { database in
            let filter: SQLQueryString = email.map { "WHERE apple_id = \(bind: $0)" } ?? ""
            return try await database.raw("SELECT * FROM refused_mail \(filter) ORDER BY id DESC LIMIT \(bind: limit)").all().map { row in
                Refusal(
                    id: try row.decode(column: "id", as: Int.self), attemptedAt: Int64(try row.decode(column: "attempted_at", as: Double.self)),
                    envelopeFrom: try row.decode(column: "envelope_from", as: String.self),
                    recipient: try row.decode(column: "recipient", as: String.self),
                    appleID: try row.decode(column: "apple_id", as: String?.self), reply: try row.decode(column: "reply", as: String.self),
                    reason: try row.decode(column: "reason", as: String.self)
                )
            }
        }
    }
}

import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads what the relay delivered (each Apple ID's inbox) and what it refused.
struct MailInbox: Sendable {
    /// A delivered message as listed: newest first.
    struct Summary: Sendable, Codable, Equatable {
        let id: String
        let from: String
        let to: String
        let deliveredTo: String
        let subject: String
        let receivedAt: UnixSeconds
        let size: Int

        enum CodingKeys: String, CodingKey {
            case id, from, to, subject, size
            case deliveredTo = "delivered_to"
            case receivedAt = "received_at"
        }

        /// The listed columns of a `relayed_mail` row, under the names above.
        static let columns: SQLQueryString =
            "id, header_from AS \"from\", relay_email AS \"to\", delivered_to, subject, received_at, size"

        /// When it arrived, for pages.
        var receivedDate: Date { receivedAt.date }
    }

    /// One whole message: what the list shows and the rest, in one JSON object.
    struct Message: Sendable, Encodable {
        /// What only the whole message shows.
        struct Details: Sendable, Codable {
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
    struct Refusal: Sendable, Codable {
        let id: Int
        let attemptedAt: UnixSeconds
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
                SELECT \(Summary.columns) FROM relayed_mail
                WHERE apple_id = \(bind: email) ORDER BY received_at DESC, rowid DESC LIMIT \(bind: limit)
                """
            ).all(decoding: Summary.self)
        }
    }

    /// One message, optionally only when it belongs to `appleID` (the portal shows only its own).
    func message(id: String, appleID: String? = nil) async throws -> Message? {
        try await store.transaction { database in
            guard
                let row = try await database.raw(
                    """
                    SELECT \(Summary.columns), apple_id, team_id, envelope_from, body_type, body, headers FROM relayed_mail
                    WHERE id = \(bind: id)
                    """
                ).first()
            else {
                return nil
            }
            let details = try row.decode(model: Message.Details.self)
            if let appleID, appleID.lowercased() != details.appleID { return nil }
            return Message(summary: try row.decode(model: Summary.self), details: details)
        }
    }

    /// Refused attempts, newest first, optionally for one Apple ID.
    func refusals(appleID: String?, limit: Int = 200) async throws -> [Refusal] {
        let email = appleID?.lowercased()
        return try await store.transaction { database in
            let filter: SQLQueryString = email.map { "WHERE apple_id = \(bind: $0)" } ?? ""
            return try await database.raw("SELECT * FROM refused_mail \(filter) ORDER BY id DESC LIMIT \(bind: limit)").all(decoding: Refusal.self)
        }
    }
}

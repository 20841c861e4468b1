import Foundation
import SQLKit

/// Whether the person shares their address or a relay address with a team.
enum EmailChoice: String, Sendable {
    case share
    case hide
}

/// An Apple ID's consent to an app (one per primary App ID): the name and email choice given then.
struct Grant: Sendable, Hashable {
    let email: String
    let bundleID: String
    let firstName: String
    let lastName: String
    let emailChoice: EmailChoice
    let createdAt: Date

    static func find(email: String, bundleID: String, in database: any SQLDatabase) async throws -> Grant? {
        guard let row = try await database.raw("SELECT * FROM grants WHERE email = \(bind: email) AND bundle_id = \(bind: bundleID)").first() else {
            return nil
        }
        return try Grant(row: row)
    }

    static func all(email: String, in database: any SQLDatabase) async throws -> [Grant] {
        try await database.raw("SELECT * FROM grants WHERE email = \(bind: email) ORDER BY created_at, bundle_id").all().map(Grant.init(row:))
    }

    func insert(in database: any SQLDatabase) async throws {
        try await database.raw(
            """
            INSERT INTO grants (email, bundle_id, first_name, last_name, email_choice, created_at)
            VALUES (\(bind: email), \(bind: bundleID), \(bind: firstName), \(bind: lastName), \(bind: emailChoice.rawValue), \(bind: createdAt.timeIntervalSince1970))
            """
        ).run()
    }

    /// Ends the grant and every token issued under it (Stop Using Apple ID, `/auth/revoke`).
    static func end(email: String, bundleID: String, at now: Date, in database: any SQLDatabase) async throws {
        try await database.raw("DELETE FROM grants WHERE email = \(bind: email) AND bundle_id = \(bind: bundleID)").run()
        try await database.raw(
            "UPDATE tokens SET revoked_at = \(bind: now.timeIntervalSince1970) WHERE email = \(bind: email) AND bundle_id = \(bind: bundleID) AND revoked_at IS NULL"
        ).run()
    }
}

extension Grant {
    /// The value of a row of its table.
    init(row: any SQLRow) throws {
        email = try row.decode(column: "email", as: String.self)
        bundleID = try row.decode(column: "bundle_id", as: String.self)
        firstName = try row.decode(column: "first_name", as: String.self)
        lastName = try row.decode(column: "last_name", as: String.self)
        emailChoice = EmailChoice(rawValue: try row.decode(column: "email_choice", as: String.self)) ?? .share
        createdAt = Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self))
    }
}

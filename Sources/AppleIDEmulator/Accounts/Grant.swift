import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether the person shares their address or a relay address with a team.
enum EmailChoice: String, Sendable, Decodable {
    case share
    case hide
}

/// An Apple ID's consent to an app (one per primary App ID): the name and email choice given then.
struct Grant: Sendable, Hashable, Decodable {
    let email: String
    let bundleID: String
    let firstName: String
    let lastName: String
    let emailChoice: EmailChoice
    let createdAt: Date

    /// A `grants` row under the names above.
    private static let columns: SQLQueryString =
        "email, bundle_id AS bundleID, first_name AS firstName, last_name AS lastName, email_choice AS emailChoice, created_at AS createdAt"

    static func find(email: String, bundleID: String, in database: any SQLDatabase) async throws -> Grant? {
        try await database.raw("SELECT \(columns) FROM grants WHERE email = \(bind: email) AND bundle_id = \(bind: bundleID)")
            .first(decoding: Grant.self)
    }

    static func all(email: String, in database: any SQLDatabase) async throws -> [Grant] {
        try await database.raw("SELECT \(columns) FROM grants WHERE email = \(bind: email) ORDER BY created_at, bundle_id")
            .all(decoding: Grant.self)
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

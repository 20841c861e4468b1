import SQLKit

/// A Work & School (managed) account as stored: its organization and the address apps get (none when `nil`).
struct ManagedAccountRecord: Sendable, Hashable, Decodable {
    let email: String
    let organization: String
    let workEmail: String?

    /// A `managed_accounts` row under the names above.
    private static let columns: SQLQueryString = "email, organization, work_email AS workEmail"

    /// The managed account stored under `email` (an Apple ID's storage key), or `nil` for a personal Apple ID.
    static func find(email: String, in database: any SQLDatabase) async throws -> ManagedAccountRecord? {
        try await database.raw("SELECT \(columns) FROM managed_accounts WHERE email = \(bind: email)").first(decoding: ManagedAccountRecord.self)
    }

    /// Replaces the stored managed accounts with the configured ones; an organization's switches already
    /// set stay, and a configured block is added once.
    static func record(_ appleIDs: [EmulatorConfiguration.AppleID], in database: any SQLDatabase) async throws {
        try await database.raw("DELETE FROM managed_accounts").run()
        for appleID in appleIDs {
            guard let managed = appleID.managed else { continue }
            try await database.raw(
                """
                INSERT INTO managed_accounts (email, organization, work_email)
                VALUES (\(bind: appleID.storageKey), \(bind: managed.organization), \(bind: managed.email))
                """
            ).run()
            for bundleID in managed.blockedApps {
                try await database.raw(
                    "INSERT OR IGNORE INTO organization_blocks (email, bundle_id, blocked) VALUES (\(bind: appleID.storageKey), \(bind: bundleID), 1)"
                ).run()
            }
        }
    }
}

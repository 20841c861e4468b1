import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a sign-in reads about one Apple ID and one app, in one statement where it took three or four:
/// whether the Apple ID is active (stored and not deleted), how the app's team knows it (``TeamUser``),
/// its consent to the app (``Grant``), and its Work & School record (none for a personal Apple ID).
struct SignInRecords: Sendable {
    let active: Bool
    let teamUser: TeamUser?
    let grant: Grant?
    let managed: ManagedAccountRecord?

    /// The records of the Apple ID stored under `email` for the app `bundleID` of team `teamID`; each is
    /// `nil` when there is none.
    static func read(email: String, bundleID: String, teamID: String, in database: any SQLDatabase) async throws -> SignInRecords {
        // One row always: the Apple ID's key, joined to whatever exists of each record.
        guard
            let row = try await database.raw(
                """
                SELECT a.email IS NOT NULL AND a.deleted_at IS NULL AS active,
                    t.sub, t.relay_email, t.forwarding,
                    g.first_name, g.last_name, g.email_choice, g.created_at,
                    m.organization, m.work_email
                FROM (SELECT \(bind: email) AS email) k
                LEFT JOIN apple_ids a ON a.email = k.email
                LEFT JOIN team_users t ON t.email = k.email AND t.team_id = \(bind: teamID)
                LEFT JOIN grants g ON g.email = k.email AND g.bundle_id = \(bind: bundleID)
                LEFT JOIN managed_accounts m ON m.email = k.email
                """
            ).first()
        else { throw EmulatorInternalError("the sign-in records query returned no row") }
        let teamUser = try row.decode(column: "sub", as: String?.self).map { subject in
            TeamUser(
                email: email, teamID: teamID, subject: subject, relayEmail: try row.decode(column: "relay_email", as: String.self),
                forwarding: try row.decode(column: "forwarding", as: Int.self) != 0)
        }
        let grant = try row.decode(column: "first_name", as: String?.self).map { firstName in
            guard let emailChoice = EmailChoice(rawValue: try row.decode(column: "email_choice", as: String.self)) else {
                throw EmulatorInternalError("a stored grant has an unknown email choice")
            }
            return Grant(
                email: email, bundleID: bundleID, firstName: firstName, lastName: try row.decode(column: "last_name", as: String.self),
                emailChoice: emailChoice, createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)))
        }
        let managed = try row.decode(column: "organization", as: String?.self).map { organization in
            ManagedAccountRecord(email: email, organization: organization, workEmail: try row.decode(column: "work_email", as: String?.self))
        }
        return SignInRecords(active: try row.decode(column: "active", as: Int.self) != 0, teamUser: teamUser, grant: grant, managed: managed)
    }

    /// The team user read, or a new one (a new `sub` and relay address on `relayDomain`) when the app's team
    /// does not know the Apple ID yet.
    func teamUser(
        orNewFor email: String, teamID: String, random: EmulatorRandom, relayDomain: RelayDomain, in database: any SQLDatabase
    ) async throws -> TeamUser {
        if let teamUser { return teamUser }
        return try await TeamUser.create(email: email, teamID: teamID, random: random, relayDomain: relayDomain, in: database)
    }
}

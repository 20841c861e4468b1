import SQLKit

/// An Apple ID as one developer team sees it: its stable `sub` and its relay address.
struct TeamUser: Sendable, Hashable {
    let email: String
    let teamID: String
    let subject: String
    let relayEmail: String
    let forwarding: Bool

    /// The team user, created on first use (`sub` and relay address are then stable forever).
    static func ensure(email: String, teamID: String, random: EmulatorRandom, in database: any SQLDatabase) async throws -> TeamUser {
        if let existing = try await find(email: email, teamID: teamID, in: database) { return existing }
        let user = TeamUser(email: email, teamID: teamID, subject: newSubject(random), relayEmail: newRelayEmail(random), forwarding: true)
        try await database.raw(
            """
            INSERT INTO team_users (email, team_id, sub, relay_email, forwarding)
            VALUES (\(bind: email), \(bind: teamID), \(bind: user.subject), \(bind: user.relayEmail), 1)
            """
        ).run()
        return user
    }

    static func find(email: String, teamID: String, in database: any SQLDatabase) async throws -> TeamUser? {
        guard let row = try await database.raw("SELECT * FROM team_users WHERE email = \(bind: email) AND team_id = \(bind: teamID)").first() else {
            return nil
        }
        return try TeamUser(row: row)
    }

    static func find(subject: String, in database: any SQLDatabase) async throws -> TeamUser? {
        guard let row = try await database.raw("SELECT * FROM team_users WHERE sub = \(bind: subject)").first() else { return nil }
        return try TeamUser(row: row)
    }
    /// Apple's form: `000123.<32 hex>.0123`.
    static func newSubject(_ random: EmulatorRandom) -> String {
        random.digits(6) + "." + random.hex(bytes: 16) + "." + random.digits(4)
    }

    /// `<10 lowercase letters and digits>@privaterelay.appleid.com`.
    static func newRelayEmail(_ random: EmulatorRandom) -> String {
        random.string(length: 10, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789") + "@privaterelay.appleid.com"
    }
}

extension TeamUser {
    /// The value of a row of its table.
    init(row: any SQLRow) throws {
        email = try row.decode(column: "email", as: String.self)
        teamID = try row.decode(column: "team_id", as: String.self)
        subject = try row.decode(column: "sub", as: String.self)
        relayEmail = try row.decode(column: "relay_email", as: String.self)
        forwarding = try row.decode(column: "forwarding", as: Int.self) != 0
    }
}

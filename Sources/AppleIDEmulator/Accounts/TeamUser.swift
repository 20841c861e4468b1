import SQLKit

/// An Apple ID as one developer team sees it: its stable `sub` and its relay address.
struct TeamUser: Sendable, Hashable, Decodable {
    let email: String
    let teamID: String
    let subject: String
    let relayEmail: String
    let forwarding: Bool

    /// A `team_users` row under the names above.
    private static let columns: SQLQueryString = "email, team_id AS teamID, sub AS subject, relay_email AS relayEmail, forwarding"

    /// The team user, created on first use (`sub` and relay address are then stable forever).
    /// A new relay address is on `relayDomain`; an existing one keeps the domain it was issued on.
    static func ensure(
        email: String, teamID: String, random: EmulatorRandom, relayDomain: RelayDomain, in database: any SQLDatabase
    ) async throws -> TeamUser {
        if let existing = try await find(email: email, teamID: teamID, in: database) { return existing }
        return try await create(email: email, teamID: teamID, random: random, relayDomain: relayDomain, in: database)
    }

    /// A new team user (there is none yet for `email` and `teamID`), with a new `sub` and relay address on `relayDomain`.
    static func create(
        email: String, teamID: String, random: EmulatorRandom, relayDomain: RelayDomain, in database: any SQLDatabase
    ) async throws -> TeamUser {
        let user = TeamUser(
            email: email, teamID: teamID, subject: newSubject(random), relayEmail: newRelayEmail(random, domain: relayDomain), forwarding: true)
        try await database.raw(
            """
            INSERT INTO team_users (email, team_id, sub, relay_email, forwarding)
            VALUES (\(bind: email), \(bind: teamID), \(bind: user.subject), \(bind: user.relayEmail), 1)
            """
        ).run()
        return user
    }

    static func find(email: String, teamID: String, in database: any SQLDatabase) async throws -> TeamUser? {
        try await database.raw("SELECT \(columns) FROM team_users WHERE email = \(bind: email) AND team_id = \(bind: teamID)")
            .first(decoding: TeamUser.self)
    }

    static func find(subject: String, in database: any SQLDatabase) async throws -> TeamUser? {
        try await database.raw("SELECT \(columns) FROM team_users WHERE sub = \(bind: subject)")
            .first(decoding: TeamUser.self)
    }
    /// Apple's form: `000123.<32 hex>.0123`.
    static func newSubject(_ random: EmulatorRandom) -> String {
        random.digits(6) + "." + random.hex(bytes: 16) + "." + random.digits(4)
    }

    /// `<10 lowercase letters and digits>@<domain>` (`private.icloud.com` unless configured otherwise).
    static func newRelayEmail(_ random: EmulatorRandom, domain: RelayDomain) -> String {
        random.string(length: 10, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789") + "@" + domain.rawValue
    }
}

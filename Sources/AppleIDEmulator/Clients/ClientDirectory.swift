import Crypto
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Looks up client ids and team keys. Apps and keys come from the configuration in force
/// (``LiveConfiguration``: the configured one plus seeds); which team owns an app comes from the store,
/// because an app transfer changes it.
struct ClientDirectory: Sendable {
    let live: LiveConfiguration
    private let store: EmulatorStore
    /// Each app's stored team, read once and forgotten when the app is transferred (``teamChanged(bundleID:)``).
    private let teams = StoredValueCache<String, AppTeam>()

    /// The configuration in force now.
    var configuration: EmulatorConfiguration { live.snapshot.configuration }
    private var appsByClientID: [String: (app: EmulatorConfiguration.App, kind: RegisteredClient.Kind)] { live.snapshot.appsByClientID }

    init(live: LiveConfiguration, store: EmulatorStore) {
        self.live = live
        self.store = store
    }

    /// Records each configured app's team; an app that was transferred keeps its new team.
    func prepare() async throws {
        let apps = configuration.apps
        try await store.transaction { database in
            for app in apps {
                try await database.raw("INSERT OR IGNORE INTO app_teams (bundle_id, team_id) VALUES (\(bind: app.bundleID), \(bind: app.teamID))")
                    .run()
                try await database.raw(
                    "UPDATE app_teams SET team_id = \(bind: app.teamID) WHERE bundle_id = \(bind: app.bundleID) AND transferred_at IS NULL"
                ).run()
            }
        }
    }

    /// The client registered under `clientID` (exact, case-sensitive), or `nil`.
    func client(_ clientID: String) async throws -> RegisteredClient? {
        guard let (app, kind) = appsByClientID[clientID] else { return nil }
        let team = try await teams.value(for: app.bundleID) {
            try await store.read { database in try await AppTeam.find(app, in: database) }
        }
        return team.client(clientID: clientID, kind: kind, app: app)
    }

    /// The client within a transaction (read from the store, never from memory).
    func client(_ clientID: String, in database: any SQLDatabase) async throws -> RegisteredClient? {
        guard let (app, kind) = appsByClientID[clientID] else { return nil }
        return try await AppTeam.find(app, in: database).client(clientID: clientID, kind: kind, app: app)
    }

    /// Forgets what is kept of the app's team: call it once a transaction that may have transferred it has ended.
    func teamChanged(bundleID: String) {
        teams.invalidate(bundleID)
    }

    /// Forgets every kept team: after a reset or a seed.
    func forgetTeams() {
        teams.invalidateAll()
    }

    /// The app whose bundle id is `bundleID`.
    func app(bundleID: String) -> EmulatorConfiguration.App? {
        guard let (app, kind) = appsByClientID[bundleID], kind == .app else { return nil }
        return app
    }

    /// A team's client-secret key named `keyID`.
    func teamKey(teamID: String, keyID: String) -> P256.Signing.PublicKey? {
        live.snapshot.teamKeys[teamID]?[keyID]
    }

    /// Whether `teamID` is a configured team.
    func isTeam(_ teamID: String) -> Bool {
        configuration.teams.contains { $0.teamID == teamID }
    }
}

/// Which team owns an app, as the store has it (an app transfer changes it).
private struct AppTeam: Sendable {
    let teamID: String
    let previousTeamID: String?
    let transferredAt: Date?

    static func find(_ app: EmulatorConfiguration.App, in database: any SQLDatabase) async throws -> AppTeam {
        let row = try await database.raw("SELECT team_id, previous_team_id, transferred_at FROM app_teams WHERE bundle_id = \(bind: app.bundleID)")
            .first()
        return AppTeam(
            teamID: try row?.decode(column: "team_id", as: String.self) ?? app.teamID,
            previousTeamID: try row?.decode(column: "previous_team_id", as: String?.self),
            transferredAt: try row?.decode(column: "transferred_at", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        )
    }

    func client(clientID: String, kind: RegisteredClient.Kind, app: EmulatorConfiguration.App) -> RegisteredClient {
        RegisteredClient(clientID: clientID, kind: kind, app: app, teamID: teamID, previousTeamID: previousTeamID, transferredAt: transferredAt)
    }
}

import JuiceInfrastructure
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the fixture API does between test cases: reset to the configured state, seed Apple IDs, teams
/// and apps, move the clock, and list what was issued. Resets and seeds run one at a time.
struct FixtureActions: Sendable {
    /// The tables a reset empties: every trace of sign-ins, notifications, mail and switches. The
    /// signing keys stay, so a relying party's cached keys keep verifying.
    static let resetTables = [
        "grants", "codes", "tokens", "sessions", "team_users", "transfer_subs", "outbox", "notification_attempts", "relayed_mail",
        "refused_mail", "organization_blocks", "managed_accounts", "apple_ids", "app_teams",
    ]

    let live: LiveConfiguration
    let store: EmulatorStore
    let directory: ClientDirectory
    let accounts: AppleIDDirectory
    let clock: EmulatorClock
    /// Injected failures, forgotten by a reset.
    let failures: FailureInjection
    /// Captured requests, forgotten by a reset.
    let capture: RequestCapture
    private let lock = AsyncLock()

    init(
        live: LiveConfiguration, store: EmulatorStore, directory: ClientDirectory, accounts: AppleIDDirectory, clock: EmulatorClock,
        failures: FailureInjection = FailureInjection(), capture: RequestCapture = RequestCapture()
    ) {
        self.live = live
        self.store = store
        self.directory = directory
        self.accounts = accounts
        self.clock = clock
        self.failures = failures
        self.capture = capture
    }

    /// Back to the configuration the emulator started with, with no sign-ins, grants, codes, tokens,
    /// notifications, mail, sessions, injected failures or captured requests, and the clock at the base time.
    func reset() async throws {
        try await lock.withLock {
            try await store.transaction { database in
                for table in Self.resetTables {
                    try await database.raw("DELETE FROM \(unsafeRaw: table)").run()
                }
            }
            live.replace(with: live.configured)
            try await prepare()
            clock.reset()
            failures.reset()
            capture.reset()
        }
    }

    /// Adds (or replaces) the seed's teams, apps and Apple IDs; state already stored is kept.
    /// - Throws: ``EmulatorConfigurationError`` when the result is not a valid configuration (nothing changes then).
    func seed(_ seed: EmulatorConfiguration) async throws {
        try await lock.withLock {
            let merged = live.snapshot.configuration.merging(seed)
            try merged.validate(seededWith: seed)
            live.replace(with: merged)
            try await prepare()
        }
    }

    /// Everything issued for the app `bundleID`; `nil` when no such app is configured.
    func issued(bundleID: String) async throws -> IssuedCredentials? {
        guard directory.app(bundleID: bundleID) != nil else { return nil }
        return try await store.transaction { try await IssuedCredentials.list(bundleID: bundleID, in: $0) }
    }

    /// Writes the configuration in force to the store and forgets what was kept from it.
    private func prepare() async throws {
        defer {
            directory.forgetTeams()
            accounts.forgetStates()
        }
        try await directory.prepare()
        try await accounts.prepare()
    }
}

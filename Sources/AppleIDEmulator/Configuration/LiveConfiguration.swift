import Crypto
import Synchronization

/// The configuration the emulator runs with now: the one it started with, plus whatever the fixture API
/// seeded since (``FixtureActions``); a reset returns to the one it started with.
///
/// ``ClientDirectory`` and ``AppleIDDirectory`` read the current ``Snapshot`` on every lookup, so a seed
/// takes effect at once for every request that starts after it.
final class LiveConfiguration: Sendable {
    /// One configuration and the lookups derived from it.
    struct Snapshot: Sendable {
        let configuration: EmulatorConfiguration
        let appsByClientID: [String: (app: EmulatorConfiguration.App, kind: RegisteredClient.Kind)]
        let teamKeys: [String: [String: P256.Signing.PublicKey]]
        let appleIDs: [String: EmulatorConfiguration.AppleID]

        init(_ configuration: EmulatorConfiguration) {
            self.configuration = configuration
            var apps: [String: (app: EmulatorConfiguration.App, kind: RegisteredClient.Kind)] = [:]
            for app in configuration.apps {
                apps[app.bundleID] = (app, .app)
                for servicesID in app.servicesIDs { apps[servicesID] = (app, .services) }
            }
            appsByClientID = apps
            var keys: [String: [String: P256.Signing.PublicKey]] = [:]
            for team in configuration.teams {
                for key in team.keys {
                    keys[team.teamID, default: [:]][key.keyID] = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)
                }
            }
            teamKeys = keys
            var appleIDs: [String: EmulatorConfiguration.AppleID] = [:]
            for appleID in configuration.appleIDs { appleIDs[appleID.storageKey] = appleID }
            self.appleIDs = appleIDs
        }
    }

    /// The configuration the emulator started with (what a reset returns to).
    let configured: EmulatorConfiguration
    private let state: Mutex<Snapshot>

    init(_ configuration: EmulatorConfiguration) {
        configured = configuration
        state = Mutex(Snapshot(configuration))
    }

    /// The configuration in force now.
    var snapshot: Snapshot { state.withLock { $0 } }

    /// Puts `configuration` (already validated) in force.
    func replace(with configuration: EmulatorConfiguration) {
        let snapshot = Snapshot(configuration)
        state.withLock { $0 = snapshot }
    }
}

import AppleIDEmulator
import Logging
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Apple a run plays: the emulator's engine (its token endpoint, keys, discovery, signer,
/// client-secret check and clock), configured with the backend's team, key and client ids and the run's
/// Apple IDs. Each case stages its sign-in through it and puts its failures in force in the emulator's
/// vocabulary; ``endCase()`` clears them.
struct AppleStage: Sendable {
    let engine: AppleEngine
    let options: ConformanceOptions
    /// The run's main Apple ID (web sign-in, returning user, notifications).
    let mainAppleID: String
    /// The native sign-in's Apple ID.
    let nativeAppleID: String
    /// The requests Apple's endpoints answered while a case made the token endpoint refuse every client
    /// (`token_invalid_client`): not the backend's client secrets' fault.
    let staged = StagedRefusals()

    /// The ids of the requests answered while an injected `invalid_client` was in force.
    final class StagedRefusals: Sendable {
        private let ranges = Mutex<[ClosedRange<Int>]>([])
        private let start = Mutex<Int?>(nil)

        func begin(after id: Int) { start.withLock { $0 = id + 1 } }

        func end(through id: Int) {
            guard
                let first = start.withLock({ state -> Int? in
                    defer { state = nil }
                    return state
                }), first <= id
            else { return }
            ranges.withLock { $0.append(first...id) }
        }

        func contains(_ id: Int) -> Bool { ranges.withLock { $0.contains { $0.contains(id) } } }
    }

    /// The first and last name of every Apple ID the kit signs in.
    static let name = (first: "Ada", last: "Lovelace")

    /// Opens the engine's store in `directory` (the caller removes it).
    static func open(options: ConformanceOptions, directory: URL, logger: Logger) async throws -> AppleStage {
        let tag = RandomText.hex32().prefix(8)
        let main = "ada.\(tag)@example.com"
        let native = "ada.native.\(tag)@example.com"
        let appleIDs = [main, native].map {
            EmulatorConfiguration.AppleID(email: $0, password: RandomText.hex32(), firstName: name.first, lastName: name.last)
        }
        let configuration = EmulatorConfiguration(
            teams: [.init(teamID: options.teamID, keys: [.init(keyID: options.keyID, publicKeyPEM: options.teamPublicKeyPEM)])],
            apps: [.init(teamID: options.teamID, bundleID: options.appAudience, servicesIDs: Array(options.clientIDs.dropFirst()))],
            appleIDs: appleIDs)
        let engine = try await AppleEngine.open(
            configuration: configuration, dataDirectory: directory, port: options.port, issuer: options.effectiveIssuer,
            publicURL: options.appleBaseURL, logger: logger)
        // Apple publishes two keys: the active one and the next (a rotation makes the standby active).
        do {
            try await engine.prepareStandbyKey()
        } catch {
            await engine.close()
            throw error
        }
        let stage = AppleStage(engine: engine, options: options, mainAppleID: main, nativeAppleID: native)
        stage.endCase()
        return stage
    }

    /// A fresh Apple ID, never signed in before.
    func freshAppleID() async throws -> String {
        let email = "grace.\(RandomText.hex32().prefix(12))@example.com"
        try await engine.addAppleID(email: email, firstName: Self.name.first, lastName: Self.name.last)
        return email
    }

    /// Puts `failures` in force; those that apply per client, for `clientID`.
    func put(_ failures: [AppleFailure], clientID: String) {
        if failures.contains(where: { $0.kind == .tokenInvalidClient }) { staged.begin(after: lastRequestID()) }
        for failure in failures {
            let delay: Double? = [.tokenDelay, .keysDelay].contains(failure.kind) ? (options.appleStallBound + .seconds(15)).inSeconds : nil
            engine.inject(
                failure.kind, clientID: failure.perClient ? clientID : nil, count: failure.count, delaySeconds: delay, status: failure.status,
                relayDomain: failure.relayDomain)
        }
    }

    /// Clears the case's failures and forgeries; with `--drifted-discovery`, discovery stays drifted.
    func endCase() {
        staged.end(through: lastRequestID())
        engine.clearFailures()
        if options.driftedDiscovery { engine.inject(.issuerDrift) }
    }

    /// The id of the newest request Apple's endpoints received (0: none yet).
    func lastRequestID() -> Int {
        engine.requests().last?.id ?? 0
    }

    /// The requests to `path` received after the request `id`.
    func requests(to path: String, after id: Int = 0) -> [CapturedRequest] {
        engine.requests().filter { $0.id > id && $0.path == path }
    }
}

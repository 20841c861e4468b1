import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The emulator's Apple in one value: the store, signing keys, clients, Apple IDs, token endpoint,
/// client-secret check, clock, injected failures and captured requests, wired once.
///
/// `buildEmulatorApplication` serves it (``router(adminToken:)``) with its services; the conformance kit
/// serves the same engine on its own port and stages each case through ``AppleEngine/signIn(_:)`` and the
/// failure vocabulary (`Failures/`), so there is one Apple, never a second one.
package final class AppleEngine: Sendable {
    let configuration: EmulatorConfiguration
    let clock: EmulatorClock
    let time: EmulatorTime
    let random: EmulatorRandom
    let sleep: EmulatorSleep
    let options: EmulatorOptions
    let address: EmulatorAddress
    let store: EmulatorStore
    let keys: SigningKeyRing
    let live: LiveConfiguration
    let directory: ClientDirectory
    let accounts: AppleIDDirectory
    let signer: JWSSigner
    /// Test state of the fixture API, forgotten by a reset: injected failures and captured requests.
    let failures: FailureInjection
    let capture: RequestCapture
    /// The one hook for tokens Apple would never mint (``TokenForgery``).
    let forgeries: TokenForgeries
    let tokens: IdentityTokenFactory
    let validator: ClientSecretValidator
    let authorizer: Authorizer

    private init(
        configuration: EmulatorConfiguration, clock: EmulatorClock, random: EmulatorRandom, sleep: EmulatorSleep, options: EmulatorOptions,
        address: EmulatorAddress, store: EmulatorStore
    ) {
        self.configuration = configuration
        self.clock = clock
        self.time = clock.time
        self.random = random
        self.sleep = sleep
        self.options = options
        self.address = address
        self.store = store
        keys = SigningKeyRing(store: store, time: clock.time, random: random, gracePeriod: options.keyGracePeriod)
        live = LiveConfiguration(configuration)
        directory = ClientDirectory(live: live, store: store)
        accounts = AppleIDDirectory(live: live, store: store)
        signer = JWSSigner(keys: keys)
        failures = FailureInjection()
        capture = RequestCapture()
        forgeries = TokenForgeries(random: random)
        tokens = IdentityTokenFactory(signer: signer, address: address, time: clock.time, failures: failures, forgeries: forgeries)
        validator = ClientSecretValidator(directory: directory, address: address, time: clock.time)
        authorizer = Authorizer(
            store: store, random: random, time: clock.time, tokens: tokens, relayDomain: options.relayDomain, failures: failures)
    }

    /// Opens the store in `dataDirectory` and prepares keys, clients and Apple IDs.
    /// - Parameters:
    ///   - configuration: Teams, apps and Apple IDs; validated here.
    ///   - host: The address the engine is served on (the base URL, with `port`, unless `publicURL` says otherwise).
    ///   - port: The port; 0 until the server binds (``bind(port:)``).
    ///   - issuer: The `iss` of every token; `nil` uses the base URL.
    /// - Throws: ``EmulatorConfigurationError`` for an invalid configuration, or a storage error.
    package static func open(
        configuration: EmulatorConfiguration, dataDirectory: URL, host: String = "127.0.0.1", port: Int = 0, issuer: String? = nil,
        publicURL: String? = nil, time: EmulatorTime = .system, random: EmulatorRandom = .system, sleep: EmulatorSleep = .system,
        options: EmulatorOptions = EmulatorOptions(), logger: Logger
    ) async throws -> AppleEngine {
        try configuration.validate()
        let store = try await EmulatorStore.open(directory: dataDirectory, logger: logger)
        let engine = AppleEngine(
            configuration: configuration, clock: EmulatorClock(base: time), random: random, sleep: sleep, options: options,
            address: EmulatorAddress(host: host, port: port, publicURL: publicURL, issuer: issuer), store: store)
        do {
            try await engine.keys.prepare()
            try await engine.directory.prepare()
            try await engine.accounts.prepare()
        } catch {
            await store.close()
            throw error
        }
        return engine
    }

    /// Closes the store (when no service owns it).
    /// Makes the standby signing key when there is none, so the key set publishes two keys as Apple's does
    /// (the emulator does it after its ready line, to start sooner; the kit before its first case).
    package func prepareStandbyKey() async throws {
        try await keys.prepareStandby()
    }

    package func close() async {
        await store.close()
    }
}

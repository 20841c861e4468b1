import Foundation
import Hummingbird
import JuiceInfrastructure
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the emulator: a Hummingbird application serving Apple's endpoints and pages, with the
/// notification outbox delivery and the store's lifecycle as services of the application (running
/// the application runs them too; add the application to your own `ServiceGroup` to run it in-process).
///
/// ```swift
/// let app = try await buildEmulatorApplication(
///     configuration: try EmulatorConfiguration(json: Data(contentsOf: configURL)),
///     dataDirectory: URL(fileURLWithPath: "emulator-data"),
///     port: 8081
/// )
/// try await app.runService()
/// ```
///
/// - Parameters:
///   - configuration: Teams, apps and Apple IDs; validated here.
///   - dataDirectory: Where the SQLite store lives (created with mode 0700).
///   - host: The address to bind (`127.0.0.1` by default).
///   - port: The port; 0 picks a free one (see `onServerRunning`).
///   - issuer: The `iss` of every token; `nil` uses the base URL. `https://appleid.apple.com` issues
///     tokens exactly as Apple does.
///   - publicURL: The URL clients reach the emulator at, when it is not `http://host:port`.
///   - time: The clock (tests inject one to expire codes and keys).
///   - random: The source of codes, tokens and identifiers.
///   - sleep: How injected delays (`token_delay`, `keys_delay`) wait; tests inject one that returns at once.
///   - options: Key grace period and outbox retry tunables.
///   - logger: The application's logger (secrets are never logged); by default `AppleIDEmulator` at the
///     level `LOG_LEVEL` names (`info` when unset).
///   - onServerRunning: Called with the bound port once the server listens.
///   - onSMTPRunning: Called with the bound SMTP port once the relay listens (when `options.smtp` is set).
/// - Throws: ``EmulatorConfigurationError`` for an invalid configuration, or a storage error.
public func buildEmulatorApplication(
    configuration: EmulatorConfiguration,
    dataDirectory: URL,
    host: String = "127.0.0.1",
    port: Int = 0,
    issuer: String? = nil,
    publicURL: String? = nil,
    time: EmulatorTime = .system,
    random: EmulatorRandom = .system,
    sleep: EmulatorSleep = .system,
    options: EmulatorOptions = EmulatorOptions(),
    logger: Logger? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
    onSMTPRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try configuration.validate()
    // The clock every component reads: the injected time, which only the fixture API moves.
    let clock = EmulatorClock(base: time)
    let time = clock.time
    let logger = logger ?? defaultEmulatorLogger()
    let address = EmulatorAddress(host: host, port: port, publicURL: publicURL, issuer: issuer)
    let store = try await EmulatorStore.open(directory: dataDirectory, logger: logger)
    let keys = SigningKeyRing(store: store, time: time, random: random, gracePeriod: options.keyGracePeriod)
    let live = LiveConfiguration(configuration)
    let directory = ClientDirectory(live: live, store: store)
    let accounts = AppleIDDirectory(live: live, store: store)
    do {
        try await keys.prepare()
        try await directory.prepare()
        try await accounts.prepare()
    } catch {
        await store.close()
        throw error
    }

    let signer = JWSSigner(keys: keys)
    // Test state of the fixture API, forgotten by a reset: injected failures and captured requests.
    let failures = FailureInjection()
    let capture = RequestCapture()
    let tokens = IdentityTokenFactory(signer: signer, address: address, time: time, failures: failures)
    let validator = ClientSecretValidator(directory: directory, address: address, time: time)
    let authorizer = Authorizer(store: store, random: random, time: time, tokens: tokens, relayDomain: options.relayDomain, failures: failures)
    let actions = AccountActions(store: store, directory: directory, accounts: accounts, random: random, time: time)

    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: RequestCaptureMiddleware(capture: capture, time: time))
    router.addRoutes(
        DiscoveryController(
            keys: keys, address: address, keyFailure: KeyEndpointFailure(failures: failures, sleep: sleep), drift: IssuerDrift(failures: failures)
        ).endpoints)
    router.addRoutes(AppleIDScriptController().endpoints)
    router.addRoutes(
        TokenController(
            validator: validator, service: TokenService(store: store, random: random, time: time, tokens: tokens, relayDomain: options.relayDomain),
            failure: TokenEndpointFailure(failures: failures, sleep: sleep)
        ).endpoints)
    router.addRoutes(RevocationController(validator: validator, store: store, time: time).endpoints)
    router.addRoutes(
        MigrationController(validator: validator, directory: directory, store: store, random: random, time: time, relayDomain: options.relayDomain)
            .endpoints)
    router.addRoutes(
        DeviceController(directory: directory, accounts: accounts, authorizer: authorizer, policy: OrganizationPolicy(store: store)).endpoints)
    let sessions = BrowserSessionStore(store: store, random: random, time: time)
    let pages = try EmulatorPageRenderer()
    let policy = OrganizationPolicy(store: store)
    router.addRoutes(
        AuthorizeController(directory: directory, accounts: accounts, authorizer: authorizer, sessions: sessions, pages: pages, policy: policy)
            .endpoints)
    router.addRoutes(RootPageController(pages: pages, address: address, relayDomain: options.relayDomain).endpoints)
    let inbox = MailInbox(store: store)
    router.addRoutes(
        AccountPortalController(accounts: accounts, actions: actions, sessions: sessions, pages: pages, inbox: inbox, policy: policy).endpoints)
    router.addRoutes(
        AdminController(
            adminToken: configuration.adminToken, address: address, actions: actions, keys: keys, inbox: inbox, policy: policy,
            fixtures: FixtureController(
                fixtures: FixtureActions(
                    live: live, store: store, directory: directory, accounts: accounts, clock: clock, failures: failures, capture: capture)),
            failures: FailureController(failures: failures, keys: keys, directory: directory),
            requests: RequestCaptureController(capture: capture, pages: pages)
        ).endpoints
    )

    // The delivery service owns its outgoing HTTP client (no redirects: OutgoingHTTP) while it runs.
    let delivery = NotificationDeliveryService(
        store: store, signer: signer, address: address, time: time, options: options, logger: logger, failures: failures
    )
    var services: [any Service] = [StoreLifecycleService(store: store), delivery]
    if let smtp = options.smtp {
        let relay = MailRelay(store: store, directory: directory, random: random, time: time, dailyLimit: smtp.dailyLimitPerAddress)
        services.append(
            SMTPRelayService(options: smtp, relay: relay, hostname: options.relayDomain.rawValue, logger: logger, onRunning: onSMTPRunning))
    }
    return Application(
        router: router,
        server: .http1(idle: options.httpIdleTimeout, head: options.httpHeaderTimeout, body: options.httpBodyTimeout),
        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "AppleIDEmulator"),
        services: services,
        onServerRunning: { channel in
            let bound = channel.localAddress?.port ?? port
            address.bind(port: bound)
            logger.info("Apple ID emulator listening", metadata: ["url": "\(address.baseURL)", "issuer": "\(address.issuer)"])
            await onServerRunning(bound)
            // After the ready line, before the first connection is served: the key set is complete
            // (active and standby) for every request, and a start waits for one key generation, not two.
            do {
                try await keys.prepareStandby()
            } catch {
                logger.error("Apple ID emulator could not create its standby signing key", metadata: ["error": "\(error)"])
            }
        },
        logger: logger
    )
}

/// `AppleIDEmulator` logging at `LOG_LEVEL` (default `info`).
private func defaultEmulatorLogger() -> Logger {
    var logger = Logger(label: "AppleIDEmulator")
    logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    return logger
}

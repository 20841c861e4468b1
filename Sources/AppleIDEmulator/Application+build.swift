import Hummingbird
import JuiceInfrastructure
import Logging
import NIOCore
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    let logger = logger ?? defaultEmulatorLogger()
    let engine = try await AppleEngine.open(
        configuration: configuration, dataDirectory: dataDirectory, host: host, port: port, issuer: issuer, publicURL: publicURL, time: time,
        random: random, sleep: sleep, options: options, logger: logger)
    let router: Router<BasicRequestContext>
    do {
        router = try engine.router()
    } catch {
        await engine.close()
        throw error
    }
    let store = engine.store
    let address = engine.address
    let failures = engine.failures
    let signer = engine.signer
    let time = engine.time
    let directory = engine.directory
    let random = engine.random

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
                try await engine.prepareStandbyKey()
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

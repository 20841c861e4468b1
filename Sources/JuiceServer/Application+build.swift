import AppleSignIn
import AsyncHTTPClient
import Foundation
import Hummingbird
import JuiceHTTP
import JuiceInfrastructure
import Logging
import ServiceLifecycle

/// Refuses to go on when the executable's resource bundle (`juice_JuiceServer.resources`, the common-password
/// list) is missing, with an error naming the path it looked for: `juice serve` checks before it starts
/// anything, and ``buildApplication(configuration:time:random:httpClient:logger:metrics:onServerRunning:)``
/// before it opens the database.
package func checkServerResources() throws {
    if case .failure(let missing) = CommonPasswords.bundled { throw missing }
}

/// Builds the Juice server: opens and migrates the database, wires the stores and flows, and
/// returns a Hummingbird application whose services (database lifetime, expiry purge) run with it.
///
/// ```swift
/// let app = try await buildApplication(configuration: configuration)
/// try await app.runService()
/// ```
///
/// - Parameters:
///   - configuration: The server's configuration.
///   - time: The clock (tests inject one to expire sessions and sign-in requests).
///   - random: The source of tokens and ids.
///   - httpClient: Reaches Apple (or the emulator), over HTTP only. `nil` (the default): the application
///     owns a client that never follows redirects and shuts it down when it stops. A client passed here
///     is the caller's to shut down, and must not follow redirects either.
///   - logger: The application's logger (tokens, cookies and passwords are never logged).
///   - metrics: Where `GET /metrics` reads from (the process's registry by default).
///   - onServerRunning: Called with the bound port once the server listens.
/// - Throws: a storage error, ``DatabaseLocationError`` for a database this build cannot open, or an error
///   naming the path of the common-password list when the executable's resource bundle
///   (`juice_JuiceServer.resources`) is missing: the server refuses to start without it.
public func buildApplication(
    configuration: ServerConfiguration,
    time: TimeSource = .system,
    random: ServerRandom = .system,
    httpClient: HTTPClient? = nil,
    logger: Logger = Logger(label: "juice.server"),
    metrics: ServerMetrics = .shared,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try checkServerResources()
    let database = try await openDatabase(configuration.database, logger: logger)
    // The server's own outgoing client unless one is given: no redirects (OutgoingHTTP); a service
    // listed first (so stopped last) shuts it down.
    let ownedClient: HTTPClient? = httpClient == nil ? OutgoingHTTP.makeClient() : nil
    let httpClient = httpClient ?? ownedClient ?? OutgoingHTTP.processClient
    let dependencies: ServerDependencies
    do {
        try await SchemaMigrator().migrate(database, now: time.now, logger: logger)
        dependencies = try await ServerDependencies.make(
            configuration: configuration, database: database, time: time, random: random, httpClient: httpClient, logger: logger,
            metrics: metrics
        )
    } catch {
        await database.close()
        try? await ownedClient?.shutdown()
        throw error
    }
    let router = buildRouter(dependencies: dependencies)
    let purge = ExpiryPurge(
        sessions: dependencies.sessions, authorizations: dependencies.authorizations, passkeys: dependencies.passkeys,
        nonceLifetime: configuration.authorizationLifetime,
        time: time, logger: logger)
    let check = dependencies.refreshTokenCheck
    let revocations = dependencies.revocations
    var services: [any Service] = ownedClient.map { [HTTPClientShutdownService(client: $0, logger: logger)] } ?? []
    services += [
        DatabaseService(database: database),
        PeriodicService(interval: configuration.purgeInterval, startImmediately: false, failure: "expiry purge pass failed", logger: logger) {
            await purge.purgeOnce()
        },
        // Each refresh token is still validated at most once a day; the pass only finds the due ones.
        PeriodicService(interval: .seconds(3600), startImmediately: false, failure: "refresh-token check pass failed", logger: logger) {
            try await check.checkDue(logger: logger)
        },
        PeriodicService(
            interval: configuration.revocationRetryInterval, startImmediately: true, failure: "revocation retry pass failed", logger: logger
        ) { try await revocations.retryDue(logger: logger) },
    ]
    // The mail outbox: what is due is sent, refused, retried with backoff or suppressed (email-disabled).
    if let mail = dependencies.mailDelivery {
        services.append(
            PeriodicService(
                interval: configuration.mailDeliveryInterval, startImmediately: true, failure: "mail delivery pass failed", logger: logger
            ) {
                _ = try await mail.deliverDue(logger: logger)
            })
    }
    return Application(
        router: router,
        server: .http1(idle: configuration.httpTimeouts.idle, head: configuration.httpTimeouts.header, body: configuration.httpTimeouts.body),
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "Juice"),
        services: services,
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            logger.info("Juice listening", metadata: ["address": "\(configuration.host):\(port)", "public_url": "\(configuration.publicBase)"])
            await onServerRunning(port)
        },
        logger: logger
    )
}

/// Builds the router: request logging and metrics (secrets redacted), error pages, session
/// resolution, then the controllers; `/health` and `/metrics` for operations.
func buildRouter(dependencies: ServerDependencies) -> Router<AppRequestContext> {
    // Every GET route also answers HEAD (same headers, no body).
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: ClientAddressMiddleware(trusted: dependencies.configuration.trustedProxies))
    router.add(middleware: RequestLogMiddleware(metrics: dependencies.metrics))
    // Outside the error middleware, so error answers get the headers too.
    router.add(middleware: SecurityHeadersMiddleware(strictTransportSecurity: dependencies.configuration.usesSecureCookies))
    router.add(middleware: ErrorMiddleware(pages: dependencies.pages))
    router.add(
        middleware: SessionMiddleware(
            sessions: dependencies.sessions, accounts: dependencies.accounts, cookies: dependencies.cookies, time: dependencies.time
        )
    )
    let catalog = buildRoutes(on: router, dependencies: dependencies)
    // Last: it wraps only the not-found answer, turning a known path with another method into 405.
    router.add(middleware: MethodNotAllowedMiddleware(routes: catalog.routes))
    return router
}

/// Adds every route of Juice to `router`, each in the ``ProtectedRoutes`` group that says who may reach
/// it; the catalog lists them with their methods and protection (`RouteProtectionTests` reads it).
func buildRoutes(on router: Router<AppRequestContext>, dependencies: ServerDependencies) -> RouteCatalog<AppRequestContext> {
    let catalog = RouteCatalog(router)
    // Every route is added to the group that says who may reach it (RouteProtection); RouteProtectionTests reads the table.
    let routes = ProtectedRoutes(catalog, csrf: dependencies.csrf, origin: OriginCheck(origin: dependencies.configuration.publicOrigin))
    let web = WebController(
        pages: dependencies.pages, passwords: dependencies.passwords, sessions: dependencies.sessions, deletion: dependencies.deletion,
        cookies: dependencies.cookies, csrf: dependencies.csrf, time: dependencies.time, passkeys: dependencies.passkeys,
        passkeyRelyingPartyID: dependencies.configuration.resolvedPasskeyRelyingPartyID,
        appleScript: AppleJSScript(appleBaseURL: dependencies.configuration.apple.appleBaseURL)
    )
    web.addRoutes(to: routes)
    AccountSettingsController(
        web: web,
        change: PasswordChange(
            passwords: dependencies.passwords, accounts: dependencies.accounts,
            transaction: PasswordChangeTransaction(database: dependencies.database),
            time: dependencies.time),
        accounts: dependencies.accounts, sessions: dependencies.sessions, time: dependencies.time
    ).addRoutes(to: routes)
    routes.openReads.addRoutes(WellKnownController(configuration: dependencies.configuration).endpoints)
    AppleAuthController(signIn: dependencies.appleSignIn, cookies: dependencies.cookies, csrf: dependencies.csrf).addRoutes(to: routes)
    ApplePopupController(popup: dependencies.popupSignIn, cookies: dependencies.cookies, csrf: dependencies.csrf).addRoutes(to: routes)
    APIController(
        native: dependencies.nativeSignIn, passwords: dependencies.passwords, sessions: dependencies.sessions, deletion: dependencies.deletion,
        lifecycle: dependencies.lifecycle
    ).addRoutes(to: routes)
    PasskeyAPIController(ceremonies: dependencies.passkeyCeremonies, signUp: dependencies.passkeySignUp).addRoutes(to: routes)
    PasskeyWebController(web: web, ceremonies: dependencies.passkeyCeremonies, signUp: dependencies.passkeySignUp).addRoutes(to: routes)
    routes.signedInReads.addRoutes(
        EventsController(
            sessions: dependencies.sessions, lifecycle: dependencies.lifecycle, cookies: dependencies.cookies, time: dependencies.time
        ).endpoints
    )
    NotificationController(verifier: dependencies.notificationVerifier, lifecycle: dependencies.lifecycle, time: dependencies.time)
        .addRoutes(to: routes)
    routes.openReads.addRoutes(OpenAPIDocument.endpoints)
    routes.openReads.addRoutes(OperationsController(database: dependencies.database, metrics: dependencies.metrics).endpoints)
    return catalog
}

/// Opens the configured database: a SQLite file, or a pool of connections to PostgreSQL.
/// - Throws: ``DatabaseLocationError`` when the database cannot be reached (the message never holds the password).
func openDatabase(_ location: DatabaseLocation, logger: Logger) async throws -> any JuiceDatabase {
    switch location {
    case .sqlite(let path):
        return try await SQLiteJuiceDatabase.open(path: path, logger: logger)
    case .postgres(let url):
        return try await PostgresJuiceDatabase.open(url: url, logger: logger)
    }
}

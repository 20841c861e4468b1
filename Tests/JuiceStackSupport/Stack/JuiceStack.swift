import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import JuiceEmulatorSupport
import JuiceTestSupport
import Logging
import NIOHTTP1
import ServiceLifecycle

@testable import AppleIDEmulator
@testable import JuiceServer

/// What survives a restart: the data directory, the database, the team key, the refresh-token key
/// and the server's port (its callback URL is registered at the emulator).
package struct StackEnvironment: Sendable {
    package static let teamID = "TEAMJUICE1"
    package static let bundleID = "com.example.apple-samplecode.juice"
    package static let servicesID = "com.example.apple-samplecode.juice.web"
    package static let johnny = EmulatorConfiguration.AppleID(
        email: "appleseed@juice.test", password: "juice", firstName: "Johnny", lastName: "Appleseed")
    package static let jane = EmulatorConfiguration.AppleID(email: "jane@juice.test", password: "juice-jane", firstName: "Jane", lastName: "Doe")
    /// A Work & School account whose organization gives apps no email.
    package static let pupil = EmulatorConfiguration.AppleID(
        email: "pupil@appleid.school.test", password: "juice-pupil", firstName: "Pat", lastName: "Pupil",
        managed: .init(organization: "Juice School"))
    /// The team an app transfer moves the app to.
    package static let receivingTeamID = "TEAMJUICE2"
    /// Another app of the team: its tokens are not for this server.
    package static let otherBundleID = "com.example.other-app"
    /// The sender of the server's mail, registered with the relay as a single address.
    package static let mailFrom = "Juice <hello@juice.test>"

    /// Where the emulator posts server-to-server notifications.
    package enum Notifications: Sendable {
        /// The server's `/apple/notifications`.
        case server
        /// Nowhere (the app has no notification URL).
        case none
        /// Another URL (a recording tap in front of the server).
        case url(String)
    }

    package let directory: URL
    package let teamKey: P256.Signing.PrivateKey
    package let keyID: String
    package let serverSecret: SymmetricKey
    package let serverPort: Int
    /// Which database the server runs on.
    package let kind: TestDatabase
    /// The server's database: a SQLite file in `directory`, or a fresh PostgreSQL database.
    package let database: DatabaseLocation
    /// The PostgreSQL database to drop in ``remove()``.
    package let postgresName: String?
    /// Where notifications go.
    package var notifications = Notifications.server
    /// The receiving team's key (app transfer).
    package var receivingTeamKey = P256.Signing.PrivateKey()
    /// Whether the server signs client secrets as the receiving team (after an app transfer).
    package var serverIsReceivingTeam = false
    /// Messages the emulator's relay takes per relay address in 24 hours.
    package var relayDailyLimit = 100
    /// The server's `trusted_proxies`.
    package var trustedProxies = TrustedProxies.none
    /// The server's `require_nonce`.
    package var requireNonce = false
    /// The public URL's host (the server listens on 127.0.0.1 whatever it is): `localhost` for a
    /// browser's passkeys, as WebAuthn takes no IP address for an RP ID.
    package var publicHost = "127.0.0.1"
    /// The server's `passkey_related_origins`.
    package var passkeyRelatedOrigins: [String] = []

    /// A fresh environment; `remove()` it when done (``with(_:_:)`` does).
    package static func make(_ kind: TestDatabase = .sqlite) async throws -> StackEnvironment {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database: DatabaseLocation
        var postgresName: String?
        switch kind {
        case .sqlite:
            database = .sqlite(path: directory.appendingPathComponent("juice.sqlite").path)
        case .postgres:
            let created = try await TestPostgres.createDatabase()
            database = .postgres(url: created.url)
            postgresName = created.name
        }
        return StackEnvironment(
            directory: directory, teamKey: P256.Signing.PrivateKey(), keyID: "KEYJUICE01", serverSecret: SymmetricKey(size: .bits256),
            serverPort: try FreePort.pick(), kind: kind, database: database, postgresName: postgresName
        )
    }

    /// Makes an environment, runs `body`, removes the environment (also when `body` throws).
    package static func with<T: Sendable>(_ kind: TestDatabase, _ body: @Sendable (StackEnvironment) async throws -> T) async throws -> T {
        let environment = try await make(kind)
        return try await withCleanup({ try await body(environment) }, cleanup: { await environment.remove() })
    }

    /// Makes an environment, opens its database migrated to the current schema, runs `body`, then
    /// closes the database and removes the environment (also when `body` throws).
    package static func withMigratedDatabase<T: Sendable>(
        _ kind: TestDatabase, _ body: @Sendable (any JuiceDatabase) async throws -> T
    ) async throws -> T {
        try await with(kind) { environment in
            var logger = Logger(label: "juice-test-database")
            logger.logLevel = .warning
            let database = try await openDatabase(environment.database, logger: logger)
            return try await withCleanup(
                {
                    try await SchemaMigrator().migrate(database, now: Date(), logger: logger)
                    return try await body(database)
                }, cleanup: { await database.close() })
        }
    }

    /// Drops the PostgreSQL database and deletes the directory.
    package func remove() async {
        if let postgresName { try? await TestPostgres.dropDatabase(postgresName) }
        try? FileManager.default.removeItem(at: directory)
    }

    package var serverURL: String { "http://\(publicHost):\(serverPort)" }

    package var notificationURL: String? {
        switch notifications {
        case .server: return serverURL + "/apple/notifications"
        case .none: return nil
        case .url(let url): return url
        }
    }

    package var emulatorConfiguration: EmulatorConfiguration {
        EmulatorConfiguration(
            teams: [
                .init(teamID: Self.teamID, keys: [.init(keyID: keyID, publicKeyPEM: teamKey.publicKey.pemRepresentation)]),
                .init(teamID: Self.receivingTeamID, keys: [.init(keyID: "KEYJUICE02", publicKeyPEM: receivingTeamKey.publicKey.pemRepresentation)]),
            ],
            apps: [
                .init(
                    teamID: Self.teamID, bundleID: Self.bundleID, servicesIDs: [Self.servicesID], redirectURIs: [serverURL + "/auth/apple/callback"],
                    notificationURL: notificationURL, emailSources: ["hello@juice.test"], allowLocalRedirects: true
                ),
                .init(teamID: Self.teamID, bundleID: Self.otherBundleID),
            ],
            appleIDs: [Self.johnny, Self.jane, Self.pupil]
        )
    }

    /// - Parameter smtpPort: The emulator's relay; the server mails through it (tests drive delivery).
    package func serverConfiguration(emulatorURL: String, loginLimits: LoginThrottle.Limits, smtpPort: Int? = nil) -> ServerConfiguration {
        let apple = AppleSignInConfiguration(
            clientID: Self.servicesID, teamID: serverIsReceivingTeam ? Self.receivingTeamID : Self.teamID,
            keyID: serverIsReceivingTeam ? "KEYJUICE02" : keyID, privateKey: serverIsReceivingTeam ? receivingTeamKey : teamKey,
            additionalClientIDs: [Self.bundleID],
            appleBaseURL: URL(string: emulatorURL)!, issuer: emulatorURL
        )
        var configuration = ServerConfiguration(
            apple: apple, publicURL: URL(string: serverURL)!, port: serverPort, database: database,
            serverSecret: serverSecret, passwordHashCost: 4, loginLimits: loginLimits
        )
        // Tests run revocation retries themselves, at chosen moments of the test clock: a background
        // pass racing them (taking an entry while Apple is down, calling after it is back) would not.
        configuration.revocationRetryInterval = .seconds(86_400)
        configuration.trustedProxies = trustedProxies
        configuration.requireNonce = requireNonce
        configuration.passkeyRelatedOrigins = passkeyRelatedOrigins
        if let smtpPort {
            var mail = MailSettings(smtpHost: "127.0.0.1", smtpPort: smtpPort, sender: MailSender(parsing: Self.mailFrom)!)
            mail.timeout = .seconds(10)
            configuration.mail = mail
            // The same for mail: tests run delivery passes themselves.
            configuration.mailDeliveryInterval = .seconds(86_400)
        }
        return configuration
    }
}

/// The real server and the real emulator on loopback ports, started for one test.
package struct JuiceStack: Sendable {
    package let environment: StackEnvironment
    package let emulatorURL: String
    package let clock: TestClock
    /// Every server instance's own address; the first is ``serverURL``, the public URL of all.
    package let instanceURLs: [String]
    /// The emulator's private email relay (SMTP), which the server mails through.
    package var smtpPort: Int?

    package var serverURL: String { environment.serverURL }

    /// Starts both on `database`, runs `body`, shuts both down (also when `body` throws).
    ///
    /// With an `environment`, its database is used and the environment is kept (for restarts). With
    /// neither, `body` runs once on every database in ``TestDatabase/all``, each in a fresh
    /// environment: parameterized tests pass `database` so the results name it.
    package static func with<T: Sendable>(
        database: TestDatabase? = nil,
        environment: StackEnvironment? = nil,
        clock: TestClock = TestClock(),
        loginLimits: LoginThrottle.Limits = .init(),
        _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        if let environment {
            return try await run(environment: environment, clock: clock, loginLimits: loginLimits, body)
        }
        guard let database else {
            var result: T?
            for kind in TestDatabase.all {
                result = try await StackEnvironment.with(kind) { try await run(environment: $0, clock: clock, loginLimits: loginLimits, body) }
            }
            return result!
        }
        return try await StackEnvironment.with(database) { try await run(environment: $0, clock: clock, loginLimits: loginLimits, body) }
    }

    /// Starts `instances` servers on one database and one emulator, as behind a load balancer: all
    /// share the first one's public URL (the callback registered at Apple), each listens on its own port.
    package static func withInstances<T: Sendable>(
        _ instances: Int, database: TestDatabase, _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        try await StackEnvironment.with(database) {
            try await run(environment: $0, clock: TestClock(), loginLimits: .init(), instances: instances, body)
        }
    }

    /// Runs the stack with a connection pool of its own (``TestHTTP/pool``), shut down once its servers
    /// have stopped: a test that restarts the server on the same port gets a fresh pool, never a
    /// connection the stopped process closed (which failed `AppTransferTests` once with
    /// "Connection reset by peer").
    package static func run<T: Sendable>(
        environment: StackEnvironment, clock: TestClock, loginLimits: LoginThrottle.Limits, instances: Int = 1,
        _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        try await TestHTTP.withFreshPool {
            try await runServers(environment: environment, clock: clock, loginLimits: loginLimits, instances: instances, body)
        }
    }

    private static func runServers<T: Sendable>(
        environment: StackEnvironment, clock: TestClock, loginLimits: LoginThrottle.Limits, instances: Int,
        _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        let logger = Logger.quiet("juice-test")
        return try await EmulatorLauncher.run(
            configuration: environment.emulatorConfiguration, dataDirectory: environment.directory.appendingPathComponent("emulator"),
            time: clock.emulatorTime, options: EmulatorOptions(smtp: SMTPOptions(port: 0, dailyLimitPerAddress: environment.relayDailyLimit)),
            logger: logger
        ) { emulator in
            guard let smtpPort = emulator.smtpPort else { throw ServicesDidNotStart() }
            let (serverPorts, serverPortSink) = AsyncStream.makeStream(of: Int.self)
            var services: [any Service] = []
            for instance in 0..<instances {
                var configuration = environment.serverConfiguration(emulatorURL: emulator.baseURL, loginLimits: loginLimits, smtpPort: smtpPort)
                if instance > 0 { configuration.port = 0 }
                services.append(
                    try await buildApplication(
                        configuration: configuration, time: clock.timeSource, logger: logger, metrics: ServerMetrics(),
                        onServerRunning: { serverPortSink.yield($0) }
                    )
                )
            }
            // Every instance announces its port; the first port is enough to start the group's watch, the
            // rest are read below (a server that cannot bind its pre-picked port fails the test, not hangs it).
            return try await withRunningServices(services, logger: logger, ready: (serverPorts, serverPortSink)) { first in
                var ports = [first]
                var serverIterator = serverPorts.makeAsyncIterator()
                while ports.count < instances {
                    guard let port = await serverIterator.next() else { throw ServicesDidNotStart() }
                    ports.append(port)
                }
                let urls = [environment.serverURL] + ports.filter { $0 != environment.serverPort }.map { "http://127.0.0.1:\($0)" }
                let stack = JuiceStack(
                    environment: environment, emulatorURL: emulator.baseURL, clock: clock, instanceURLs: urls, smtpPort: smtpPort)
                return try await body(stack)
            }
        }
    }

    /// The server's dependencies over a second connection to its database: the same stores, flows
    /// and lifecycle passes the running server uses, to run a pass (refresh check, revocation retry)
    /// at a chosen moment.
    package func withDependencies<T: Sendable>(_ body: @Sendable (ServerDependencies) async throws -> T) async throws -> T {
        let environment = environment
        let emulatorURL = emulatorURL
        let clock = clock
        let smtpPort = smtpPort
        return try await withDatabase { database in
            var logger = Logger(label: "juice-test-deps")
            logger.logLevel = .warning
            let dependencies = try await ServerDependencies.make(
                configuration: environment.serverConfiguration(emulatorURL: emulatorURL, loginLimits: .init(), smtpPort: smtpPort),
                database: database,
                time: clock.timeSource, random: .system, httpClient: TestHTTP.pool, logger: logger, metrics: ServerMetrics()
            )
            return try await body(dependencies)
        }
    }

    /// Opens the server's database a second time (SQLite: another connection, WAL lets both work;
    /// PostgreSQL: another pool).
    package func withDatabase<T: Sendable>(_ body: @Sendable (any JuiceDatabase) async throws -> T) async throws -> T {
        var logger = Logger(label: "juice-test-db")
        logger.logLevel = .warning
        let database = try await openDatabase(environment.database, logger: logger)
        do {
            let result = try await body(database)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}

extension JuiceStack {
    /// ``serverURL`` as a `URL`, as JuiceClient takes it.
    package var serverBaseURL: URL { URL(string: serverURL) ?? URL(fileURLWithPath: "/") }

    /// A JSON request to the emulator's admin endpoints (`revoke-consent`, `delete-apple-id`, …): Apple's
    /// side changing the account behind the app's back. Throws unless the emulator answers 200.
    @discardableResult
    package func admin(_ path: String, _ body: [String: Any]) async throws -> HTTPResult {
        let data = try JSONSerialization.data(withJSONObject: body)
        let answer = try await Browser().send(
            .POST, emulatorURL + "/emulator/admin/" + path, headers: [("Content-Type", "application/json")],
            body: String(decoding: data, as: UTF8.self))
        guard answer.status == 200 else { throw AdminRefused(path: path, status: answer.status, body: answer.body) }
        return answer
    }

    /// The emulator's admin endpoint did not answer 200.
    package struct AdminRefused: Error, CustomStringConvertible {
        let path: String
        let status: Int
        let body: String
        package var description: String { "the emulator's \(path) answered \(status): \(body.prefix(300))" }
    }
}

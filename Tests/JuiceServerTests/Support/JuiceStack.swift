import AppleIDEmulator
import AppleSignIn
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import JuiceServer
import Logging
import ServiceLifecycle

/// What survives a restart: the data directory, the team key, the refresh-token key and the
/// server's port (its callback URL is registered at the emulator).
struct StackEnvironment: Sendable {
    static let teamID = "TEAMJUICE1"
    static let bundleID = "com.example.apple-samplecode.juice"
    static let servicesID = "com.example.apple-samplecode.juice.web"
    static let johnny = EmulatorConfiguration.AppleID(email: "appleseed@juice.test", password: "juice", firstName: "Johnny", lastName: "Appleseed")
    static let jane = EmulatorConfiguration.AppleID(email: "jane@juice.test", password: "juice-jane", firstName: "Jane", lastName: "Doe")
    /// The team an app transfer moves the app to.
    static let receivingTeamID = "TEAMJUICE2"
    /// Another app of the team: its tokens are not for this server.
    static let otherBundleID = "com.example.other-app"

    /// Where the emulator posts server-to-server notifications.
    enum Notifications: Sendable {
        /// The server's `/apple/notifications`.
        case server
        /// Nowhere (the app has no notification URL).
        case none
        /// Another URL (a recording tap in front of the server).
        case url(String)
    }

    let directory: URL
    let teamKey: P256.Signing.PrivateKey
    let keyID: String
    let refreshTokenKey: SymmetricKey
    let serverPort: Int
    /// Where notifications go.
    var notifications = Notifications.server
    /// The receiving team's key (app transfer).
    var receivingTeamKey = P256.Signing.PrivateKey()
    /// Whether the server signs client secrets as the receiving team (after an app transfer).
    var serverIsReceivingTeam = false

    static func make() throws -> StackEnvironment {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return StackEnvironment(
            directory: directory, teamKey: P256.Signing.PrivateKey(), keyID: "KEYJUICE01", refreshTokenKey: SymmetricKey(size: .bits256),
            serverPort: try FreePort.pick()
        )
    }

    var serverURL: String { "http://127.0.0.1:\(serverPort)" }
    var databasePath: String { directory.appendingPathComponent("juice.sqlite").path }

    var notificationURL: String? {
        switch notifications {
        case .server: return serverURL + "/apple/notifications"
        case .none: return nil
        case .url(let url): return url
        }
    }

    var emulatorConfiguration: EmulatorConfiguration {
        EmulatorConfiguration(
            teams: [
                .init(teamID: Self.teamID, keys: [.init(keyID: keyID, publicKeyPEM: teamKey.publicKey.pemRepresentation)]),
                .init(teamID: Self.receivingTeamID, keys: [.init(keyID: "KEYJUICE02", publicKeyPEM: receivingTeamKey.publicKey.pemRepresentation)]),
            ],
            apps: [
                .init(
                    teamID: Self.teamID, bundleID: Self.bundleID, servicesIDs: [Self.servicesID], redirectURIs: [serverURL + "/auth/apple/callback"],
                    notificationURL: notificationURL, allowLocalRedirects: true
                ),
                .init(teamID: Self.teamID, bundleID: Self.otherBundleID),
            ],
            appleIDs: [Self.johnny, Self.jane]
        )
    }

    func serverConfiguration(emulatorURL: String, loginLimits: LoginThrottle.Limits) -> ServerConfiguration {
        let apple = AppleSignInConfiguration(
            clientID: Self.servicesID, teamID: serverIsReceivingTeam ? Self.receivingTeamID : Self.teamID,
            keyID: serverIsReceivingTeam ? "KEYJUICE02" : keyID, privateKey: serverIsReceivingTeam ? receivingTeamKey : teamKey,
            additionalClientIDs: [Self.bundleID],
            appleBaseURL: URL(string: emulatorURL)!, issuer: emulatorURL
        )
        return ServerConfiguration(
            apple: apple, publicURL: URL(string: serverURL)!, port: serverPort, database: .sqlite(path: databasePath),
            refreshTokenKey: refreshTokenKey, passwordHashCost: 4, loginLimits: loginLimits
        )
    }
}

/// The real server and the real emulator on loopback ports, started for one test.
struct JuiceStack: Sendable {
    let environment: StackEnvironment
    let emulatorURL: String
    let clock: TestClock

    var serverURL: String { environment.serverURL }

    /// Starts both, runs `body`, shuts both down (also when `body` throws).
    static func with<T: Sendable>(
        environment: StackEnvironment? = nil,
        clock: TestClock = TestClock(),
        loginLimits: LoginThrottle.Limits = .init(),
        _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        let environment = try environment ?? StackEnvironment.make()
        var logger = Logger(label: "juice-test")
        logger.logLevel = .warning
        let (emulatorPorts, emulatorPortSink) = AsyncStream.makeStream(of: Int.self)
        let emulator = try await buildEmulatorApplication(
            configuration: environment.emulatorConfiguration, dataDirectory: environment.directory.appendingPathComponent("emulator"), port: 0,
            time: clock.emulatorTime, httpClient: Browser.http, logger: logger, onServerRunning: { emulatorPortSink.yield($0) }
        )
        let emulatorGroup = ServiceGroup(configuration: .init(services: [emulator], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { emulatorPortSink.finish() }
                try await emulatorGroup.run()
            }
            var serverGroup: ServiceGroup?
            do {
                var emulatorIterator = emulatorPorts.makeAsyncIterator()
                guard let emulatorPort = await emulatorIterator.next() else { throw CancellationError() }
                let emulatorURL = "http://127.0.0.1:\(emulatorPort)"
                let (serverPorts, serverPortSink) = AsyncStream.makeStream(of: Int.self)
                let server = try await buildApplication(
                    configuration: environment.serverConfiguration(emulatorURL: emulatorURL, loginLimits: loginLimits), time: clock.time,
                    httpClient: Browser.http, logger: logger, onServerRunning: { serverPortSink.yield($0) }
                )
                let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [], logger: logger))
                serverGroup = group
                tasks.addTask {
                    // A server that cannot bind its pre-picked port must fail the test, not hang it.
                    defer { serverPortSink.finish() }
                    try await group.run()
                }
                var serverIterator = serverPorts.makeAsyncIterator()
                guard await serverIterator.next() != nil else { throw StackServices.StartFailure() }
                let result = try await body(JuiceStack(environment: environment, emulatorURL: emulatorURL, clock: clock))
                await group.triggerGracefulShutdown()
                await emulatorGroup.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await serverGroup?.triggerGracefulShutdown()
                await emulatorGroup.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// The server's dependencies over a second connection to its database: the same stores, flows
    /// and lifecycle passes the running server uses, to run a pass (refresh check, revocation retry)
    /// at a chosen moment.
    func withDependencies<T: Sendable>(_ body: @Sendable (ServerDependencies) async throws -> T) async throws -> T {
        let environment = environment
        let emulatorURL = emulatorURL
        let clock = clock
        return try await withDatabase { database in
            var logger = Logger(label: "juice-test-deps")
            logger.logLevel = .warning
            let dependencies = try await ServerDependencies.make(
                configuration: environment.serverConfiguration(emulatorURL: emulatorURL, loginLimits: .init()), database: database,
                time: clock.time, random: .system, httpClient: Browser.http, logger: logger
            )
            return try await body(dependencies)
        }
    }

    /// Opens the server's database file (a second connection; WAL lets both work).
    func withDatabase<T: Sendable>(_ body: @Sendable (any JuiceDatabase) async throws -> T) async throws -> T {
        var logger = Logger(label: "juice-test-db")
        logger.logLevel = .warning
        let database = try await SQLiteJuiceDatabase.open(path: environment.databasePath, logger: logger)
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

import AppleSignIn
import AsyncHTTPClient
import Crypto
import Foundation
import JuiceTestSupport
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

@testable import AppleIDEmulator
@testable import JuiceServer

/// The real Juice server and the real Apple ID emulator on loopback ports (SQLite in a temporary
/// directory), started for one test: what JuiceClient talks to in production, minus Apple.
struct LiveJuice: Sendable {
    static let teamID = "TEAMJUICE1"
    static let bundleID = "com.example.apple-samplecode.juice"
    static let servicesID = "com.example.apple-samplecode.juice.web"
    static let johnny = EmulatorConfiguration.AppleID(email: "appleseed@juice.test", password: "juice", firstName: "Johnny", lastName: "Appleseed")

    let serverURL: URL
    let emulatorURL: String

    /// Starts both, runs `body`, stops both (also when `body` throws).
    static func with<T: Sendable>(_ body: @Sendable (LiveJuice) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-client-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var logger = Logger(label: "juice-client-live")
        logger.logLevel = .warning
        let teamKey = P256.Signing.PrivateKey()
        let serverPort = try FreePort.pick()
        let serverURL = "http://127.0.0.1:\(serverPort)"
        let emulatorConfiguration = EmulatorConfiguration(
            teams: [.init(teamID: teamID, keys: [.init(keyID: "KEYJUICE01", publicKeyPEM: teamKey.publicKey.pemRepresentation)])],
            apps: [
                .init(
                    teamID: teamID, bundleID: bundleID, servicesIDs: [servicesID], redirectURIs: [serverURL + "/auth/apple/callback"],
                    notificationURL: serverURL + "/apple/notifications", allowLocalRedirects: true
                )
            ],
            appleIDs: [johnny]
        )
        let emulatorPorts = AsyncStream.makeStream(of: Int.self)
        let emulator = try await buildEmulatorApplication(
            configuration: emulatorConfiguration, dataDirectory: directory.appendingPathComponent("emulator"), port: 0,
            random: EmulatorRandom.system.withSigningKeys(pem: TestSigningKeys.nextPEM), logger: logger,
            onServerRunning: { emulatorPorts.continuation.yield($0) }
        )
        let emulatorGroup = ServiceGroup(configuration: .init(services: [emulator], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { emulatorPorts.continuation.finish() }
                try await emulatorGroup.run()
            }
            var serverGroup: ServiceGroup?
            do {
                var emulatorIterator = emulatorPorts.stream.makeAsyncIterator()
                guard let emulatorPort = await emulatorIterator.next() else { throw StartFailure() }
                let emulatorURL = "http://127.0.0.1:\(emulatorPort)"
                let apple = AppleSignInConfiguration(
                    clientID: servicesID, teamID: teamID, keyID: "KEYJUICE01", privateKey: teamKey, additionalClientIDs: [bundleID],
                    appleBaseURL: URL(string: emulatorURL)!, issuer: emulatorURL
                )
                let configuration = ServerConfiguration(
                    apple: apple, publicURL: URL(string: serverURL)!, port: serverPort,
                    database: .sqlite(path: directory.appendingPathComponent("juice.sqlite").path), serverSecret: SymmetricKey(size: .bits256),
                    passwordHashCost: 4
                )
                let serverPorts = AsyncStream.makeStream(of: Int.self)
                let server = try await buildApplication(
                    configuration: configuration, logger: logger, metrics: ServerMetrics(), onServerRunning: { serverPorts.continuation.yield($0) }
                )
                let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [], logger: logger))
                serverGroup = group
                tasks.addTask {
                    defer { serverPorts.continuation.finish() }
                    try await group.run()
                }
                var serverIterator = serverPorts.stream.makeAsyncIterator()
                guard await serverIterator.next() != nil else { throw StartFailure() }
                let result = try await body(LiveJuice(serverURL: URL(string: serverURL)!, emulatorURL: emulatorURL))
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

    /// A service stopped before it listened (its port taken between picking and binding).
    struct StartFailure: Error, CustomStringConvertible {
        var description: String { "the server or the emulator stopped before it was listening" }
    }

    /// Calls an emulator admin endpoint (`revoke-consent`, `delete-apple-id`, …), as Apple's side
    /// changing the account behind the app's back.
    func admin(_ path: String, _ body: [String: String]) async throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let answer = try await fetch(
            emulatorURL + "/emulator/admin/" + path, method: .POST, headers: [("Content-Type", "application/json")], body: json)
        guard answer.status == 200 else { throw AdminFailure(status: answer.status, body: answer.body) }
    }

    struct AdminFailure: Error, CustomStringConvertible {
        let status: Int
        let body: String
        var description: String { "the emulator's admin endpoint answered \(status): \(body.prefix(300))" }
    }
}

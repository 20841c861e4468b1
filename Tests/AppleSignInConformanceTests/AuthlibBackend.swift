import Crypto
import Foundation
import JuiceProcesses
import JuiceTestSupport

@testable import AppleSignInConformance

#if canImport(Glibc)
    import Glibc
#endif

/// Authlib's Flask client (Authlib 1.9.6, Flask 3.1.3, joserfc 1.8.0 from PyPI, as `scripts/test` pins them)
/// in the repository's example backend (Examples/python/flask_authlib/app.py, unchanged): web form_post, native
/// and notifications, Apple's base URL the kit's. Served by Fixtures/authlib/serve.py on a loopback port.
struct AuthlibBackend: Sendable {
    static let teamID = "TEAMCONF01"
    static let keyID = "KEYCONF001"
    static let servicesID = "com.example.conformance.web"
    static let bundleID = "com.example.conformance"
    /// The Python modules it needs.
    static let modules = ["authlib", "flask", "joserfc", "requests", "cryptography"]

    let port: Int
    let applePort: Int
    let teamKey: P256.Signing.PrivateKey

    var url: String { "http://127.0.0.1:\(port)" }

    /// This directory (Tests/AppleSignInConformanceTests).
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let example = directory.appendingPathComponent("../../Examples/python/flask_authlib").standardized

    /// The first module python3 cannot import, or `nil`.
    static func missingModule() -> String? {
        guard BrowserTools.python != nil else { return "python3" }
        return modules.first { !BrowserTools.pythonCanImport($0) }
    }

    /// Whether the test runs: python3 has Authlib, or `JUICE_TEST_REQUIRE_ALL=1` (then it fails naming what is missing).
    static func shouldRun() -> Bool {
        BrowserTools.requireAll || missingModule() == nil
    }

    /// Kit options for the example: the web flow (`/login`, probe `/me`), native (`/api/auth/apple`) and notifications.
    func options() -> ConformanceOptions {
        var options = ConformanceOptions(
            backend: url, port: applePort, issuer: "https://appleid.apple.com", teamID: Self.teamID, keyID: Self.keyID,
            teamPublicKeyPEM: teamKey.publicKey.pemRepresentation, clientID: Self.servicesID, redirectURI: url + "/auth/apple/callback",
            bundleID: Self.bundleID)
        options.startPath = "/login"
        options.probePath = "/me"
        options.nativePath = "/api/auth/apple"
        options.notificationsPath = "/apple/notifications"
        options.requestTimeout = .seconds(30)
        // The example's native path gives Apple 10 s (requests' timeout): within the kit's bound it refuses (by a crash).
        options.appleStallBound = .seconds(15)
        return options
    }

    /// Serves the example while `body` runs, then stops it; its output goes to `test-output/conformance/authlib.log`.
    func serving<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory("authlib")
        defer { directory.remove() }
        let keyFile = try directory.writePrivate("team-key.pem", teamKey.pemRepresentation)
        var environment = ProcessInfo.processInfo.environment
        environment["APPLE_URL"] = "http://127.0.0.1:\(applePort)"
        environment["TEAM_ID"] = Self.teamID
        environment["KEY_ID"] = Self.keyID
        environment["TEAM_KEY_FILE"] = keyFile.path
        environment["CLIENT_ID"] = Self.servicesID
        environment["BUNDLE_ID"] = Self.bundleID
        environment["PORT"] = String(port)
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let log = TestOutput.base.appendingPathComponent("conformance/authlib.log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = try SpawnedChild.start(
            BrowserTools.python ?? "/usr/bin/python3",
            [Self.directory.appendingPathComponent("Fixtures/authlib/serve.py").path, Self.example.path],
            environment: environment, directory: Self.example.path, standardIO: .file(log.path))
        return try await withCleanup {
            try await eventually("authlib listening on \(port)", timeout: .seconds(60)) {
                guard server.isRunning else { throw Failure(reason: "serve.py exited; see \(log.path)") }
                guard let socket = LoopbackSocket.connected(toPort: port) else { return false }
                close(socket)
                return true
            }
            return try await body()
        } cleanup: {
            await server.stop(grace: .seconds(10))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}

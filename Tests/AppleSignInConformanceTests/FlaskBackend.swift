import Crypto
import Foundation
import JuiceProcesses
import JuiceTestSupport

@testable import AppleSignInConformance

#if canImport(Glibc)
    import Glibc
#endif

/// A Flask backend from PyPI packages (`scripts/test` pins them), Apple's base URL the kit's, on a loopback port:
/// - `.authlib`: Authlib's Flask client (Authlib 1.9.6, Flask 3.1.3, joserfc 1.8.0) in the repository's example
///   backend (Examples/python/flask_authlib/app.py, unchanged), served by Fixtures/authlib/serve.py: web
///   form_post, native and notifications;
/// - `.pyjwt` / `.pyjwtNeverRefetching`: Fixtures/pyjwt/app.py, a web backend written here on PyJWT 2.15.1's
///   `PyJWKClient` at its defaults (or with a cooldown of a year: it never refetches for an unknown kid).
struct FlaskBackend: Sendable {
    enum Kind: Sendable {
        case authlib
        case pyjwt
        case pyjwtNeverRefetching
    }

    let kind: Kind
    static let teamID = "TEAMCONF01"
    static let keyID = "KEYCONF001"
    static let servicesID = "com.example.conformance.web"
    static let bundleID = "com.example.conformance"
    /// The Python modules it needs.
    var modules: [String] {
        kind == .authlib ? ["authlib", "flask", "joserfc", "requests", "cryptography"] : ["jwt", "flask", "requests", "cryptography"]
    }

    let port: Int
    let applePort: Int
    let teamKey: P256.Signing.PrivateKey

    var url: String { "http://127.0.0.1:\(port)" }

    /// This directory (Tests/AppleSignInConformanceTests).
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let example = directory.appendingPathComponent("../../Examples/python/flask_authlib").standardized

    /// The first module python3 cannot import, or `nil`.
    func missingModule() -> String? {
        guard BrowserTools.python != nil else { return "python3" }
        return modules.first { !BrowserTools.pythonCanImport($0) }
    }

    /// Whether a test of `kind` runs: python3 has its modules, or `JUICE_TEST_REQUIRE_ALL=1` (then it fails naming what is missing).
    static func shouldRun(_ kind: Kind) -> Bool {
        BrowserTools.requireAll || FlaskBackend(kind: kind, port: 0, applePort: 0, teamKey: P256.Signing.PrivateKey()).missingModule() == nil
    }

    /// Kit options: the web flow (`/login`, probe `/me`); for the Authlib example also native (`/api/auth/apple`) and notifications.
    func options() -> ConformanceOptions {
        var options = ConformanceOptions(
            backend: url, port: applePort, issuer: "https://appleid.apple.com", teamID: Self.teamID, keyID: Self.keyID,
            teamPublicKeyPEM: teamKey.publicKey.pemRepresentation, clientID: Self.servicesID, redirectURI: url + "/auth/apple/callback",
            bundleID: Self.bundleID)
        options.startPath = "/login"
        options.probePath = "/me"
        guard kind == .authlib else { return options }
        options.nativePath = "/api/auth/apple"
        options.notificationsPath = "/apple/notifications"
        options.requestTimeout = .seconds(30)
        // The example's native path gives Apple 10 s (requests' timeout): within the kit's bound it refuses (by a crash).
        options.appleStallBound = .seconds(15)
        return options
    }

    /// Serves the backend while `body` runs, then stops it; its output goes to `test-output/conformance/<kind>.log`.
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
        environment["ISSUER"] = "https://appleid.apple.com"
        environment["NEVER_REFETCH"] = kind == .pyjwtNeverRefetching ? "1" : "0"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let log = TestOutput.base.appendingPathComponent("conformance/\(kind).log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let arguments =
            kind == .authlib
            ? [Self.directory.appendingPathComponent("Fixtures/authlib/serve.py").path, Self.example.path]
            : [Self.directory.appendingPathComponent("Fixtures/pyjwt/app.py").path]
        let server = try SpawnedChild.start(
            BrowserTools.python ?? "/usr/bin/python3", arguments, environment: environment, directory: Self.directory.path,
            standardIO: .file(log.path))
        return try await withCleanup {
            try await eventually("\(kind) listening on \(port)", timeout: .seconds(60)) {
                guard server.isRunning else { throw Failure(reason: "the backend exited; see \(log.path)") }
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

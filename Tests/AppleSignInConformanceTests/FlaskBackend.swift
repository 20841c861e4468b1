import Crypto
import Foundation
import JuiceProcesses
import JuiceTestSupport

@testable import AppleSignInConformance

/// A Flask backend from PyPI packages (`scripts/test` pins them), Apple's base URL the kit's, on a loopback port:
/// - `.authlib`: Authlib's Flask client (Authlib 1.9.6, Flask 3.1.3, joserfc 1.8.0) in the repository's example
///   backend (Examples/python/flask_authlib/app.py, as it is), served by Fixtures/authlib/serve.py: web
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
        let log = try PythonBackendProcess.log("\(kind)")
        let arguments =
            kind == .authlib
            ? [Self.directory.appendingPathComponent("Fixtures/authlib/serve.py").path, Self.example.path]
            : [Self.directory.appendingPathComponent("Fixtures/pyjwt/app.py").path]
        let extra = [
            "CLIENT_ID": Self.servicesID, "BUNDLE_ID": Self.bundleID, "PORT": String(port), "ISSUER": "https://appleid.apple.com",
            "NEVER_REFETCH": kind == .pyjwtNeverRefetching ? "1" : "0",
        ]
        return try await PythonBackendProcess.withEnvironment(
            applePort: applePort, teamID: Self.teamID, keyID: Self.keyID, teamKey: teamKey, extra: extra
        ) { _, environment in
            let server = try PythonBackendProcess.start(arguments, environment: environment, directory: Self.directory.path, log: log)
            return try await PythonBackendProcess.whileListening(server, name: "\(kind)", port: port, log: log, body)
        }
    }
}

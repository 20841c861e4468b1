import Crypto
import Foundation
import JuiceProcesses
import JuiceTestSupport

@testable import AppleSignInConformance

/// A real, open-source Sign in with Apple backend from PyPI (django-allauth, social-auth-app-django or
/// dj-rest-auth, the versions `scripts/test` pins), in a minimal Django project (Fixtures/django) whose only
/// change is Apple's URLs pointing at the kit or the emulator; served by `manage.py runserver` on a loopback port.
struct DjangoBackend: Sendable {
    enum Site: String, Sendable {
        /// django-allauth's Apple provider.
        case allauth = "allauth_site"
        /// social-auth-app-django with social-core's AppleIdAuth.
        case socialAuth = "social_site"
        /// dj-rest-auth's `SocialLoginView` with allauth's Apple adapter: a native app's API, configured with the bundle id.
        case restAuth = "restauth_site"

        /// The Python modules it needs.
        var modules: [String] {
            switch self {
            case .allauth: ["django", "allauth", "jwt", "cryptography"]
            case .socialAuth: ["django", "social_django", "social_core", "jwt", "cryptography"]
            case .restAuth: ["django", "dj_rest_auth", "rest_framework", "allauth", "jwt", "cryptography"]
            }
        }

        /// The client id the site's Apple calls use: the Services ID of a web sign-in, the bundle id of a native one.
        var clientID: String {
            switch self {
            case .allauth, .socialAuth: DjangoBackend.servicesID
            case .restAuth: DjangoBackend.bundleID
            }
        }

        /// The site's `client_id` setting. allauth's takes several, comma-separated (provider.py:get_auds accepts
        /// each as an audience; client.py:get_client_id uses the first for Apple's endpoints): its site serves the
        /// web (the Services ID) and the app (the bundle id).
        var configuredClientID: String {
            self == .allauth ? "\(DjangoBackend.servicesID),\(DjangoBackend.bundleID)" : clientID
        }
    }

    static let teamID = "TEAMCONF01"
    static let keyID = "KEYCONF001"
    static let servicesID = "com.example.conformance.web"
    static let bundleID = "com.example.conformance"

    let site: Site
    let port: Int
    /// Where the site reaches Apple: the kit's or the emulator's port.
    let applePort: Int
    let teamKey: P256.Signing.PrivateKey
    /// Extra environment (e.g. `SESSION_SAMESITE_NONE=1`).
    var environment: [String: String] = [:]

    var url: String { "http://127.0.0.1:\(port)" }

    /// The Django project (this file is Tests/AppleSignInConformanceTests/DjangoBackend.swift).
    static let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/django")

    /// The first of `site.modules` python3 cannot import, or `nil` when all import.
    static func missingModule(for site: Site) -> String? {
        guard BrowserTools.python != nil else { return "python3" }
        return site.modules.first { !BrowserTools.pythonCanImport($0) }
    }

    /// Kit options for this backend: the web flow, and allauth's native token check (neither library has a
    /// notification or deletion endpoint).
    func options() -> ConformanceOptions {
        let redirectPath =
            switch site {
            case .allauth, .restAuth: "/accounts/apple/login/callback/"
            case .socialAuth: "/complete/apple-id/"
            }
        var options = ConformanceOptions(
            backend: url, port: applePort, issuer: "https://appleid.apple.com", teamID: Self.teamID, keyID: Self.keyID,
            teamPublicKeyPEM: teamKey.publicKey.pemRepresentation, clientID: site.clientID, redirectURI: url + redirectPath)
        options.startPath = site == .allauth ? "/accounts/apple/login/" : "/login"
        options.startMethod = .post
        options.probePath = "/me"
        // allauth judges an app's credential in its headless API (Fixtures/django/allauth_native.py).
        if site == .allauth {
            options.nativePath = "/native"
            options.bundleID = Self.bundleID
        }
        // Both libraries fetch Apple's keys on every sign-in: no cache to wait out.
        options.keyRefetchInterval = .milliseconds(10)
        options.requestTimeout = .seconds(30)
        return options
    }

    /// Migrates a fresh SQLite database, serves the site while `body` runs, then stops it; the
    /// server's output goes to `test-output/conformance/<site>.log`.
    func serving<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let log = try PythonBackendProcess.log(site.rawValue)
        let extra = self.environment.merging(["DJANGO_SETTINGS_MODULE": site.rawValue, "CLIENT_ID": site.configuredClientID]) { _, new in new }
        return try await PythonBackendProcess.withEnvironment(
            applePort: applePort, teamID: Self.teamID, keyID: Self.keyID, teamKey: teamKey, extra: extra
        ) { directory, environment in
            var environment = environment
            environment["DATABASE_FILE"] = directory.file("db.sqlite3").path
            let migrate = try start(["migrate", "--verbosity", "0"], environment: environment, log: log)
            guard let migrated = try await eventually(timeout: .seconds(120), { migrate.exit }), migrated == .exited(0) else {
                await migrate.stop(grace: .seconds(5))
                throw DjangoFailure(reason: "manage.py migrate failed or did not end within 120 s; see \(log.path)")
            }
            let server = try start(["runserver", "127.0.0.1:\(port)", "--noreload", "--nothreading"], environment: environment, log: log)
            return try await PythonBackendProcess.whileListening(server, name: site.rawValue, port: port, log: log, body)
        }
    }

    /// `python3 manage.py arguments…` in the Django project, its output appended to `log`.
    private func start(_ arguments: [String], environment: [String: String], log: URL) throws -> SpawnedChild {
        try PythonBackendProcess.start(
            [Self.project.appendingPathComponent("manage.py").path] + arguments, environment: environment, directory: Self.project.path, log: log)
    }

    struct DjangoFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}

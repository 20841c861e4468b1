import AppleIDEmulator
import Crypto
import Foundation
import JuiceEmulatorSupport
import JuiceTestSupport
import Logging

/// An emulator in this process for a real backend to sign in through: the conformance team's key, one app
/// (`DjangoBackend.bundleID` with its Services ID), one Apple ID, Apple's issuer; and a client that does
/// not follow redirects.
struct BackendEmulator: Sendable {
    static let tester = EmulatorConfiguration.AppleID(
        email: "tester@example.net", password: "tester-password", firstName: "Tess", lastName: "Tester")
    static let adminToken = "backend-emulator-admin-token-0123"
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// Requests to the emulator (paths) or anywhere (absolute URLs).
    var http: TestHTTP { TestHTTP(baseURL: baseURL) }

    /// Starts the emulator for the team that holds `teamKey`, runs `body`, and stops it (also when `body` throws).
    static func with<T: Sendable>(teamKey: P256.Signing.PrivateKey, _ body: @Sendable (BackendEmulator) async throws -> T) async throws -> T {
        let configuration = EmulatorConfiguration(
            adminToken: adminToken,
            teams: [
                .init(teamID: DjangoBackend.teamID, keys: [.init(keyID: DjangoBackend.keyID, publicKeyPEM: teamKey.publicKey.pemRepresentation)])
            ],
            apps: [.init(teamID: DjangoBackend.teamID, bundleID: DjangoBackend.bundleID, servicesIDs: [DjangoBackend.servicesID])],
            appleIDs: [tester])
        return try await TemporaryDirectory.with("backend-emulator") { directory in
            try await EmulatorLauncher.run(
                configuration: configuration, dataDirectory: directory.url, issuer: "https://appleid.apple.com", logger: .quiet("backend-emulator")
            ) { launched in
                try await body(BackendEmulator(port: launched.port))
            }
        }
    }

    /// What an iPhone hands the app after Sign in with Apple for the bundle id: `authorizationCode`, `identityToken`, `user`, ….
    func nativeCredential(for account: EmulatorConfiguration.AppleID = tester) async throws -> [String: Any] {
        let form = [
            ("client_id", DjangoBackend.bundleID), ("account_name", account.email), ("password", account.password), ("scope", "name email"),
            ("state", "app-state"),
        ]
        let answer = try await http.postForm("/emulator/device/authorize", form)
        guard answer.status == 200, let json = answer.json else {
            throw BackendEmulatorFailure(reason: "device authorize: \(answer.status) \(answer.body)")
        }
        return json
    }

    /// `GET /emulator/admin/issued` for the app.
    func issued() async throws -> [String: Any] {
        let answer = try await http.get(
            "/emulator/admin/issued?bundle_id=\(DjangoBackend.bundleID)", headers: [("Authorization", "Bearer \(Self.adminToken)")])
        guard answer.status == 200, let json = answer.json else { throw BackendEmulatorFailure(reason: "issued: \(answer.status) \(answer.body)") }
        return json
    }
}

struct BackendEmulatorFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

import AppleIDEmulator
import AsyncHTTPClient
import Crypto
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Logging
import NIOCore
import NIOHTTP1

/// An emulator in this process for a real backend to sign in through: the conformance team's key, one app
/// (`DjangoBackend.bundleID` with its Services ID), one Apple ID, Apple's issuer; and a client that does
/// not follow redirects.
struct BackendEmulator: Sendable {
    static let tester = EmulatorConfiguration.AppleID(
        email: "tester@example.net", password: "tester-password", firstName: "Tess", lastName: "Tester")
    static let adminToken = "backend-emulator-admin-token-0123"
    static let http = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the emulator for the team that holds `teamKey`, runs `body`, and stops it (also when `body` throws).
    static func with<T: Sendable>(teamKey: P256.Signing.PrivateKey, _ body: @Sendable (BackendEmulator) async throws -> T) async throws -> T {
        let configuration = EmulatorConfiguration(
            adminToken: adminToken,
            teams: [
                .init(teamID: DjangoBackend.teamID, keys: [.init(keyID: DjangoBackend.keyID, publicKeyPEM: teamKey.publicKey.pemRepresentation)])
            ],
            apps: [.init(teamID: DjangoBackend.teamID, bundleID: DjangoBackend.bundleID, servicesIDs: [DjangoBackend.servicesID])],
            appleIDs: [tester])
        var logger = Logger(label: "backend-emulator")
        logger.logLevel = .warning
        return try await TemporaryDirectory.with("backend-emulator") { directory in
            let ready = AsyncStream.makeStream(of: Int.self)
            let app = try await buildEmulatorApplication(
                configuration: configuration, dataDirectory: directory.url, port: 0, issuer: "https://appleid.apple.com",
                random: EmulatorRandom.system.withSigningKeys(pem: TestSigningKeys.nextPEM), logger: logger,
                onServerRunning: { ready.continuation.yield($0) })
            return try await withRunningServices([app], logger: logger, ready: ready) { port in
                try await body(BackendEmulator(port: port))
            }
        }
    }

    /// What an iPhone hands the app after Sign in with Apple for the bundle id: `authorizationCode`, `identityToken`, `user`, ….
    func nativeCredential(for account: EmulatorConfiguration.AppleID = tester) async throws -> [String: Any] {
        let form = [
            ("client_id", DjangoBackend.bundleID), ("account_name", account.email), ("password", account.password), ("scope", "name email"),
            ("state", "app-state"),
        ]
        let answer = try await send(
            "/emulator/device/authorize", method: .POST, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(FormURLComponent.encode(fields: form).utf8))
        guard answer.status == 200, let json = answer.json else {
            throw BackendEmulatorFailure(reason: "device authorize: \(answer.status) \(answer.body)")
        }
        return json
    }

    /// `GET /emulator/admin/issued` for the app.
    func issued() async throws -> [String: Any] {
        let answer = try await send(
            "/emulator/admin/issued?bundle_id=\(DjangoBackend.bundleID)", method: .GET, headers: [("Authorization", "Bearer \(Self.adminToken)")],
            body: nil)
        guard answer.status == 200, let json = answer.json else { throw BackendEmulatorFailure(reason: "issued: \(answer.status) \(answer.body)") }
        return json
    }

    /// One request to `url` (absolute) or to a path of the emulator, answered whole.
    func send(_ target: String, method: HTTPMethod, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: target.hasPrefix("http") ? target : baseURL + target)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await Self.http.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return HTTPResult(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
    }
}

struct BackendEmulatorFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

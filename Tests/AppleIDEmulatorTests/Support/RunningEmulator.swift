import AppleSignIn
import AsyncHTTPClient
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

@testable import AppleIDEmulator

/// A running emulator on 127.0.0.1 with a free port, and an HTTP client that does not follow redirects.
struct RunningEmulator: Sendable {
    let baseURL: String
    let issuer: String
    let clock: TestClock
    /// The relay's SMTP port, when started with `smtp`.
    var smtpPort: Int?

    static let http = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)
    )

    /// Starts an emulator, runs `body`, and shuts the emulator down (also when `body` throws). Its
    /// data lives in `dataDirectory`, or else in a temporary directory removed afterwards.
    static func with<T: Sendable>(
        configuration: EmulatorConfiguration = Fixture.configuration(),
        dataDirectory: URL? = nil,
        clock: TestClock = TestClock(),
        issuer: String? = nil,
        options: EmulatorOptions = EmulatorOptions(outboxPollInterval: .milliseconds(20), outboxInitialBackoff: 2, outboxMaximumBackoff: 60),
        logger: Logger? = nil,
        smtp: SMTPOptions? = nil,
        sleep: EmulatorSleep = .system,
        _ body: @Sendable (RunningEmulator) async throws -> T
    ) async throws -> T {
        guard let dataDirectory else {
            return try await TemporaryDirectory.with("emulator-tests") { temporary in
                try await with(
                    configuration: configuration, dataDirectory: temporary.url, clock: clock, issuer: issuer, options: options, logger: logger,
                    smtp: smtp, sleep: sleep,
                    body)
            }
        }
        var logger = logger ?? Logger(label: "emulator-test")
        if logger.label == "emulator-test" { logger.logLevel = .warning }
        let ready = AsyncStream.makeStream(of: Int.self)
        let smtpReady = AsyncStream.makeStream(of: Int.self)
        var options = options
        options.smtp = smtp
        let app = try await buildEmulatorApplication(
            configuration: configuration, dataDirectory: dataDirectory, port: 0, issuer: issuer, time: clock.emulatorTime,
            random: EmulatorRandom.system.withSigningKeys(pem: TestSigningKeys.nextPEM), sleep: sleep,
            options: options, logger: logger, onServerRunning: { ready.continuation.yield($0) },
            onSMTPRunning: { smtpReady.continuation.yield($0) }
        )
        return try await withRunningServices([app], logger: logger, ready: ready) { port in
            let base = "http://127.0.0.1:\(port)"
            var emulator = RunningEmulator(baseURL: base, issuer: issuer ?? base, clock: clock)
            if smtp != nil {
                var smtpIterator = smtpReady.stream.makeAsyncIterator()
                emulator.smtpPort = await smtpIterator.next()
            }
            return try await body(emulator)
        }
    }

    // MARK: - HTTP

    func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(.GET, path, headers: headers, body: nil)
    }

    func postForm(_ path: String, _ fields: [(String, String)], headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(.POST, path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: Array(Self.encode(fields).utf8))
    }

    func postJSON(_ path: String, _ object: [String: Any], admin: Bool = true) async throws -> HTTPResult {
        let body = try JSONSerialization.data(withJSONObject: object)
        var headers = [("Content-Type", "application/json")]
        if admin { headers.append(("Authorization", "Bearer \(Fixture.adminToken)")) }
        return try await send(.POST, path, headers: headers, body: Array(body))
    }

    /// POSTs `json` (already JSON text) with `headers`.
    func post(_ path: String, json: String, headers: [(String, String)]) async throws -> HTTPResult {
        try await send(.POST, path, headers: headers, body: Array(json.utf8))
    }

    func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: path.hasPrefix("http") ? path : baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        // Generous: a loopback answer takes milliseconds, but a 2-core machine running builds beside
        // the suite can stall the test process for tens of seconds; a hung emulator still fails.
        let response = try await Self.http.execute(request, timeout: .seconds(90))
        let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return HTTPResult(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
    }

    static func encode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return fields.map {
            ($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }
        .joined(separator: "&")
    }

    // MARK: - Relying party (AppleSignIn)

    func client(team: TestTeam = Fixture.teamA, lifetime: TimeInterval = 3600) throws -> AppleIDClient {
        AppleIDClient(baseURL: URL(string: baseURL)!, signer: try team.signer(clock: clock, lifetime: lifetime), httpClient: Self.http)
    }

    func keySet() -> AppleKeySet {
        AppleKeySet(
            source: HTTPAppleKeySource(url: baseURL + "/auth/keys", httpClient: Self.http), minimumRefetchInterval: .zero, time: clock.timeSource)
    }

    func verifier(audiences: [String] = [Fixture.bundleID, Fixture.servicesID], keys: AppleKeySet? = nil) -> IdentityTokenVerifier {
        IdentityTokenVerifier(keys: keys ?? keySet(), issuer: issuer, audiences: audiences, time: clock.timeSource)
    }

    func secret(team: TestTeam = Fixture.teamA, clientID: String) async throws -> String {
        try await team.signer(clock: clock).secret(for: clientID).jwt
    }
}

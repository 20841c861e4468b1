import AppleSignIn
import Foundation
import JuiceEmulatorSupport
import JuiceStackSupport
import JuiceTestSupport
import Logging

@testable import AppleIDEmulator

/// A running emulator on 127.0.0.1 with a free port (started by ``EmulatorLauncher``), its clock, and
/// HTTP to it that does not follow redirects: ``http`` plain, ``admin`` with the admin token.
struct RunningEmulator: Sendable {
    let baseURL: String
    let issuer: String
    let clock: TestClock
    /// The relay's SMTP port, when started with `smtp`.
    var smtpPort: Int?

    /// Requests to the emulator (paths) or anywhere (absolute URLs).
    var http: TestHTTP { TestHTTP(baseURL: baseURL) }
    /// Requests carrying `Authorization: Bearer` with the fixture's admin token.
    var admin: TestHTTP { TestHTTP(baseURL: baseURL, headers: [("Authorization", "Bearer \(Fixture.adminToken)")]) }

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
        var options = options
        options.smtp = smtp
        return try await EmulatorLauncher.run(
            configuration: configuration, dataDirectory: dataDirectory, issuer: issuer, time: clock.emulatorTime, sleep: sleep, options: options,
            logger: logger ?? .quiet("emulator-test")
        ) { launched in
            var emulator = RunningEmulator(baseURL: launched.baseURL, issuer: issuer ?? launched.baseURL, clock: clock)
            emulator.smtpPort = launched.smtpPort
            return try await body(emulator)
        }
    }

    // MARK: - Relying party (AppleSignIn)

    func client(team: TestTeam = Fixture.teamA, lifetime: TimeInterval = 3600) throws -> AppleIDClient {
        AppleIDClient(baseURL: URL(string: baseURL)!, signer: try team.signer(clock: clock, lifetime: lifetime), httpClient: TestHTTP.pool)
    }

    func keySet() -> AppleKeySet {
        AppleKeySet(
            source: HTTPAppleKeySource(url: baseURL + "/auth/keys", httpClient: TestHTTP.pool), minimumRefetchInterval: .zero, time: clock.timeSource)
    }

    func verifier(audiences: [String] = [Fixture.bundleID, Fixture.servicesID], keys: AppleKeySet? = nil) -> IdentityTokenVerifier {
        IdentityTokenVerifier(keys: keys ?? keySet(), issuer: issuer, audiences: audiences, time: clock.timeSource)
    }

    func secret(team: TestTeam = Fixture.teamA, clientID: String) async throws -> String {
        try await team.signer(clock: clock).secret(for: clientID).jwt
    }
}

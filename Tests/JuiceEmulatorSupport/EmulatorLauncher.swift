import AppleIDEmulator
import Foundation
import JuiceTestSupport
import Logging

/// The one way tests start the Apple ID emulator: an `Application` from `buildEmulatorApplication`,
/// served in this process on 127.0.0.1 with one of the pre-made signing keys (``TestSigningKeys``), and
/// handed to the test once it listens (its HTTP port and, when `options` ask for the private email
/// relay, its SMTP port), never after a sleep or a poll. A bind failure throws instead of waiting.
///
/// What each test needs is a parameter: the configuration (apps, teams, seeded Apple IDs), a data
/// directory a restart can reuse, a fixed port, the issuer, the clock, the sleep its retries use (failure
/// injection), its options and a logger (capture).
package enum EmulatorLauncher {
    /// Starts the emulator, runs `body` with where it listens, and stops it gracefully, waiting for it,
    /// whether `body` returns or throws.
    package static func run<T: Sendable>(
        configuration: EmulatorConfiguration,
        dataDirectory: URL,
        port: Int = 0,
        issuer: String? = nil,
        time: EmulatorTime = .system,
        sleep: EmulatorSleep = .system,
        options: EmulatorOptions = EmulatorOptions(),
        logger: Logger = .quiet("emulator-test"),
        _ body: (LaunchedEmulator) async throws -> T
    ) async throws -> T {
        let ready = AsyncStream.makeStream(of: LaunchedEmulator.self)
        let listeners = Listeners(expectsSMTP: options.smtp != nil, ready: ready.continuation)
        let application = try await buildEmulatorApplication(
            configuration: configuration, dataDirectory: dataDirectory, port: port, issuer: issuer, time: time,
            random: EmulatorRandom.system.withSigningKeys(pem: TestSigningKeys.nextPEM), sleep: sleep, options: options, logger: logger,
            onServerRunning: { await listeners.bound(http: $0) }, onSMTPRunning: { await listeners.bound(smtp: $0) })
        return try await withRunningServices([application], logger: logger, ready: ready, body)
    }
}

/// Collects the ports the emulator reports and announces them once every listener it was asked for is bound.
private actor Listeners {
    let expectsSMTP: Bool
    let ready: AsyncStream<LaunchedEmulator>.Continuation
    private var http: Int?
    private var smtp: Int?

    init(expectsSMTP: Bool, ready: AsyncStream<LaunchedEmulator>.Continuation) {
        self.expectsSMTP = expectsSMTP
        self.ready = ready
    }

    func bound(http port: Int) {
        http = port
        announce()
    }

    func bound(smtp port: Int) {
        smtp = port
        announce()
    }

    private func announce() {
        guard let http, !expectsSMTP || smtp != nil else { return }
        ready.yield(LaunchedEmulator(port: http, smtpPort: smtp))
    }
}

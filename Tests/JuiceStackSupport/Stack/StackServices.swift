import Foundation
import JuiceTestSupport
import Logging
import ServiceLifecycle

@testable import AppleIDEmulator
@testable import JuiceServer

/// The server and the emulator started separately, for tests that stop and restart Apple while
/// the server keeps running.
package enum StackServices {
    package static var logger: Logger {
        var logger = Logger(label: "juice-test")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `service` for the duration of `body`, after `ready` yields once (a bind failure throws
    /// instead of waiting forever).
    package static func run<T: Sendable>(
        _ service: some Service, ready: (stream: AsyncStream<Int>, continuation: AsyncStream<Int>.Continuation),
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try await withRunningServices([service], logger: logger, ready: ready) { _ in try await body() }
    }

    /// The emulator on a fixed port with the environment's data directory (a restart keeps its state).
    package static func withEmulator<T: Sendable>(
        _ environment: StackEnvironment, port: Int, clock: TestClock, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        let ports = AsyncStream.makeStream(of: Int.self)
        let emulator = try await buildEmulatorApplication(
            configuration: environment.emulatorConfiguration, dataDirectory: environment.directory.appendingPathComponent("emulator"), port: port,
            time: clock.emulatorTime, random: EmulatorRandom.system.withSigningKeys(pem: TestSigningKeys.nextPEM),
            logger: logger, onServerRunning: { ports.continuation.yield($0) }
        )
        return try await run(emulator, ready: (ports.stream, ports.continuation), body)
    }

    /// The server, pointed at an emulator URL that may not be up.
    package static func withServer<T: Sendable>(
        _ environment: StackEnvironment, emulatorURL: String, clock: TestClock, _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        let ports = AsyncStream.makeStream(of: Int.self)
        let server = try await buildApplication(
            configuration: environment.serverConfiguration(emulatorURL: emulatorURL, loginLimits: .init()), time: clock.timeSource,
            logger: logger, onServerRunning: { ports.continuation.yield($0) }
        )
        return try await run(server, ready: (ports.stream, ports.continuation)) {
            try await body(JuiceStack(environment: environment, emulatorURL: emulatorURL, clock: clock, instanceURLs: [environment.serverURL]))
        }
    }
}

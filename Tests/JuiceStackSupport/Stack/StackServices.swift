import AppleIDEmulator
import Foundation
import JuiceEmulatorSupport
import JuiceTestSupport
import Logging

@testable import JuiceServer

/// The server and the emulator started separately, for tests that stop and restart Apple while
/// the server keeps running.
package enum StackServices {
    package static var logger: Logger { .quiet("juice-test") }

    /// The emulator on a fixed port with the environment's data directory (a restart keeps its state).
    package static func withEmulator<T: Sendable>(
        _ environment: StackEnvironment, port: Int, clock: TestClock, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try await EmulatorLauncher.run(
            configuration: environment.emulatorConfiguration, dataDirectory: environment.directory.appendingPathComponent("emulator"), port: port,
            time: clock.emulatorTime, logger: logger
        ) { _ in try await body() }
    }

    /// The server, pointed at an emulator URL that may not be up; `body` runs once it listens.
    package static func withServer<T: Sendable>(
        _ environment: StackEnvironment, emulatorURL: String, clock: TestClock, _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        let ports = AsyncStream.makeStream(of: Int.self)
        let server = try await buildApplication(
            configuration: environment.serverConfiguration(emulatorURL: emulatorURL, loginLimits: .init()), time: clock.timeSource,
            logger: logger, onServerRunning: { ports.continuation.yield($0) }
        )
        return try await withRunningServices([server], logger: logger, ready: ports) { _ in
            try await body(JuiceStack(environment: environment, emulatorURL: emulatorURL, clock: clock, instanceURLs: [environment.serverURL]))
        }
    }
}

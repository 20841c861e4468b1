import AppleIDEmulator
import Foundation
import JuiceServer
import Logging
import ServiceLifecycle

/// The server and the emulator started separately, for tests that stop and restart Apple while
/// the server keeps running.
enum StackServices {
    static var logger: Logger {
        var logger = Logger(label: "juice-test")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `service` for the duration of `body`, after `ready` yields once.
    static func run<T: Sendable>(
        _ service: some Service, ready: AsyncStream<Int>, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ready.makeAsyncIterator()
            guard await iterator.next() != nil else { throw CancellationError() }
            do {
                let result = try await body()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// The emulator on a fixed port with the environment's data directory (a restart keeps its state).
    static func withEmulator<T: Sendable>(
        _ environment: StackEnvironment, port: Int, clock: TestClock, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let emulator = try await buildEmulatorApplication(
            configuration: environment.emulatorConfiguration, dataDirectory: environment.directory.appendingPathComponent("emulator"), port: port,
            time: clock.emulatorTime, httpClient: Browser.http, logger: logger, onServerRunning: { sink.yield($0) }
        )
        return try await run(emulator, ready: ports, body)
    }

    /// The server, pointed at an emulator URL that may not be up.
    static func withServer<T: Sendable>(
        _ environment: StackEnvironment, emulatorURL: String, clock: TestClock, _ body: @Sendable (JuiceStack) async throws -> T
    ) async throws -> T {
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let server = try await buildApplication(
            configuration: environment.serverConfiguration(emulatorURL: emulatorURL, loginLimits: .init()), time: clock.time,
            httpClient: Browser.http, logger: logger, onServerRunning: { sink.yield($0) }
        )
        return try await run(server, ready: ports) {
            try await body(JuiceStack(environment: environment, emulatorURL: emulatorURL, clock: clock))
        }
    }
}

import Logging
import ServiceLifecycle

/// Why services did not start (a port taken between picking and binding, say).
package struct ServicesDidNotStart: Error, CustomStringConvertible {
    package init() {}
    package var description: String { "the service stopped before it was listening (is its port taken?)" }
}

/// Runs `services` for the duration of `body`, once `ready` yields its first value (a bound port,
/// say), then shuts them down gracefully and waits for them, whether `body` returns or throws.
///
/// If the services stop before `ready` yields (a bind failure), `ready` is finished and this throws
/// ``ServicesDidNotStart`` instead of waiting forever.
package func withRunningServices<Ready: Sendable, Result: Sendable>(
    _ services: [any Service], logger: Logger, ready: (stream: AsyncStream<Ready>, continuation: AsyncStream<Ready>.Continuation),
    _ body: (Ready) async throws -> Result
) async throws -> Result {
    let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { ready.continuation.finish() }
            try await group.run()
        }
        var iterator = ready.stream.makeAsyncIterator()
        guard let value = await iterator.next() else {
            try await tasks.waitForAll()
            throw ServicesDidNotStart()
        }
        do {
            let result = try await body(value)
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

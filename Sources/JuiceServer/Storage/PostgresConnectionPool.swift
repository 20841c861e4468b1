import Logging
import PostgresNIO
import Synchronization

/// A small pool of PostgreSQL connections for ``PostgresJuiceDatabase``: at most `maximum` open at
/// once, idle ones reused, callers beyond that wait in arrival order (and stop waiting when their
/// task is cancelled).
///
/// It needs no background task: connections are opened on demand in the caller's task, and a
/// connection found closed (the server restarted, the network dropped) is discarded and replaced.
final class PostgresConnectionPool: Sendable {
    private typealias Waiter = (ticket: Int, continuation: CheckedContinuation<PostgresConnection?, any Error>)

    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        var nextID = 0
        var waiters: [Waiter] = []
        var cancelled: Set<Int> = []
        var isClosed = false

        mutating func takeIdle() -> PostgresConnection? {
            while let connection = idle.popLast() {
                if !connection.isClosed { return connection }
                open -= 1
            }
            return nil
        }

        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }
    }

    private enum Decision {
        case use(PostgresConnection)
        case connect(Int)
        case wait(Int)
    }

    private let configuration: PostgresConnection.Configuration
    private let maximum: Int
    private let logger: Logger
    private let state = Mutex(State())
    private let attempts = Atomic<Int>(0)

    /// How many times the pool has tried to open a connection (each try is one `connect`, whatever
    /// its outcome). Tests count it to prove a refused database is not retried in a loop.
    var connectionAttempts: Int { attempts.load(ordering: .relaxed) }

    init(configuration: PostgresConnection.Configuration, maximum: Int, logger: Logger) {
        self.configuration = configuration
        self.maximum = max(2, maximum)
        self.logger = logger
    }

    /// Runs `body` with a connection of its own; the connection returns to the pool afterwards.
    func withConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        let connection = try await acquire()
        do {
            let result = try await body(connection)
            await release(connection)
            return result
        } catch {
            await release(connection)
            throw error
        }
    }

    /// Closes every idle connection and refuses new work; connections in use close when released.
    func close() async {
        let (closing, waiters) = state.withLock { state in
            state.isClosed = true
            let closing = state.idle
            state.open -= closing.count
            state.idle = []
            let waiters = state.waiters
            state.waiters = []
            return (closing, waiters)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: PostgresPoolClosed()) }
        for connection in closing { try? await connection.close() }
    }

    private func acquire() async throws -> PostgresConnection {
        while true {
            let decision = try state.withLock { state throws -> Decision in
                guard !state.isClosed else { throw PostgresPoolClosed() }
                if let connection = state.takeIdle() { return .use(connection) }
                if state.open < maximum {
                    state.open += 1
                    return .connect(state.makeID())
                }
                return .wait(state.makeID())
            }
            switch decision {
            case .use(let connection):
                return connection
            case .connect(let id):
                attempts.add(1, ordering: .relaxed)
                do {
                    return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                } catch {
                    let waiter = state.withLock { state in
                        state.open -= 1
                        return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
                    }
                    waiter?.continuation.resume(returning: nil)
                    throw error
                }
            case .wait(let ticket):
                if let connection = try await wait(ticket: ticket) { return connection }
            }
        }
    }

    /// Waits for a released connection, or for room to open one (`nil`).
    private func wait(ticket: Int) async throws -> PostgresConnection? {
        defer { state.withLock { _ = $0.cancelled.remove(ticket) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection?, any Error>) in
                let immediate = state.withLock { state -> Result<PostgresConnection?, any Error>? in
                    if state.isClosed { return .failure(PostgresPoolClosed()) }
                    if state.cancelled.contains(ticket) { return .failure(CancellationError()) }
                    if let connection = state.takeIdle() { return .success(connection) }
                    if state.open < maximum { return .success(nil) }
                    state.waiters.append((ticket, continuation))
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.waiters.firstIndex(where: { $0.ticket == ticket }) { return state.waiters.remove(at: index) }
                state.cancelled.insert(ticket)
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func release(_ connection: PostgresConnection) async {
        enum Outcome {
            case handed(Waiter)
            case kept
            case discarded(Waiter?)
        }
        let outcome = state.withLock { state -> Outcome in
            if connection.isClosed || state.isClosed {
                state.open -= 1
                return .discarded(state.waiters.isEmpty ? nil : state.waiters.removeFirst())
            }
            if !state.waiters.isEmpty { return .handed(state.waiters.removeFirst()) }
            state.idle.append(connection)
            return .kept
        }
        switch outcome {
        case .handed(let waiter):
            waiter.continuation.resume(returning: connection)
        case .kept:
            break
        case .discarded(let waiter):
            if !connection.isClosed { try? await connection.close() }
            waiter?.continuation.resume(returning: nil)
        }
    }
}

/// The database was closed; no more connections are handed out.
struct PostgresPoolClosed: Error, CustomStringConvertible {
    var description: String { "the PostgreSQL connection pool is closed" }
}

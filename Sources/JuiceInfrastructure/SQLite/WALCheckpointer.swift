import JuiceSQLite
import NIOCore
import NIOPosix
import Synchronization

/// Copies a ``SQLiteStore``'s write-ahead log into its database file on a connection and a thread of
/// its own, so that a checkpoint's `fsync`s never hold up the store's one connection.
///
/// Left to itself, SQLite checkpoints inside the commit that fills the log past 1,000 pages. That
/// commit then waits for two `fsync`s (4–7 ms each on this project's machines, ten a second under the
/// sign-in bench), and every call queued behind it on the store's thread waits too. The store turns
/// that off (`PRAGMA wal_autocheckpoint = 0`) and counts its calls instead. Every ``interval`` calls,
/// the caller that ends the count runs a `PASSIVE` checkpoint here, after it has left the store's
/// lock. Only that caller waits for it, and the store goes on answering meanwhile. `PASSIVE` takes no
/// lock that writers or readers wait for. Once the checkpoint has copied every frame, the next write
/// starts the log again from its beginning, so the log stays about ``interval`` calls long. Closing
/// the last connection checkpoints whatever is left.
final class WALCheckpointer: Sendable {
    private struct State {
        var calls = 0
        var running = false
    }

    private let connection: SQLiteHandle
    private let threadPool: NIOThreadPool
    private let state = Mutex(State())
    /// How many store calls come between two checkpoints.
    let interval: Int

    private init(connection: SQLiteHandle, threadPool: NIOThreadPool, interval: Int) {
        self.connection = connection
        self.threadPool = threadPool
        self.interval = interval
    }

    /// Opens a second connection to the database at `path`, on a thread of its own.
    static func open(path: String, interval: Int) async throws -> WALCheckpointer {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        do {
            let connection = try await threadPool.runIfActive { try SQLiteHandle.open(path: path, capacity: 1) }
            return WALCheckpointer(connection: connection, threadPool: threadPool, interval: max(1, interval))
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
    }

    /// Counts one call on the store; `true` when this caller should run ``checkpoint()`` now (at most
    /// one checkpoint runs at a time).
    func countCall() -> Bool {
        state.withLock { state in
            state.calls += 1
            guard state.calls >= interval, !state.running else { return false }
            state.calls = 0
            state.running = true
            return true
        }
    }

    /// Runs a `PASSIVE` checkpoint. A failure (the store closing, a disk error) is left to the next one
    /// and to the checkpoint at close: the log only grows meanwhile, nothing is lost.
    func checkpoint() async {
        let connection = self.connection
        try? await threadPool.runIfActive { try connection.run("PRAGMA wal_checkpoint(PASSIVE)", []) { _ in } }
        state.withLock { $0.running = false }
    }

    /// Closes the connection and stops its thread.
    func close() async {
        let connection = self.connection
        try? await threadPool.runIfActive(eventLoop: MultiThreadedEventLoopGroup.singleton.any()) { connection.close() }.get()
        try? await threadPool.shutdownGracefully()
    }
}

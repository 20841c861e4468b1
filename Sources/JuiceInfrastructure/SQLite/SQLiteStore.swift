import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// A SQLite file in WAL mode with a busy timeout and foreign keys on, on one connection with its own
/// I/O thread: the store under the emulator's state and under Juice's SQLite database.
///
/// SQLite blocks the thread it runs on (including `fsync` at commit), so the connection gets a
/// dedicated one-thread pool rather than NIO's shared blocking pool: a slow disk or bcrypt work
/// elsewhere in the process cannot queue in front of its queries.
///
/// Each call runs on that thread (``ThreadPoolTaskExecutor``): sqlite-nio runs every statement there
/// anyway, so a transaction's statements no longer cross to the cooperative pool and back one by one.
/// Calls run one at a time in arrival order (``AsyncLock``), so a transaction's statements never
/// interleave with another call's; several processes on one file are serialized by SQLite's own
/// locking (`BEGIN IMMEDIATE` plus the busy timeout). Queries are never logged: binds hold personal
/// data and secrets. The file (and its `-wal`/`-shm`) is owner-only, its directory 0700. Checkpoints
/// run beside the connection, not in its commits (``WALCheckpointer``).
package final class SQLiteStore: Sendable {
    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool
    private let executor: ThreadPoolTaskExecutor
    private let checkpointer: WALCheckpointer
    private let lock = AsyncLock()
    /// Set by ``close()``; later calls fail with ``SQLiteStoreClosed`` without touching the connection.
    private let closed = Mutex(false)
    /// The database file.
    package let path: String

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool, checkpointer: WALCheckpointer, path: String) {
        self.connection = connection
        self.threadPool = threadPool
        self.checkpointer = checkpointer
        self.executor = ThreadPoolTaskExecutor(pool: threadPool)
        self.path = path
    }

    /// Opens (creating if needed) the SQLite file at `path`.
    /// - Parameters:
    ///   - path: The database file; its directory is created 0700 when missing.
    ///   - busyTimeout: How long a statement waits for another process's lock.
    ///   - checkpointInterval: How many calls come between two checkpoints of the write-ahead log.
    ///   - logger: Receives connection messages at info and above.
    package static func open(
        path: String, busyTimeout: Duration = .seconds(5), checkpointInterval: Int = 200, logger: Logger
    ) async throws -> SQLiteStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var quietLogger = logger
        quietLogger.logLevel = max(logger.logLevel, .info)
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, logger: quietLogger, on: MultiThreadedEventLoopGroup.singleton.any()
            )
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
        let sql = connection.sql(queryLogLevel: nil)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        let checkpointer: WALCheckpointer
        do {
            try await sql.raw("PRAGMA busy_timeout = \(unsafeRaw: String(milliseconds))").run()
            try await sql.raw("PRAGMA journal_mode = WAL").run()
            try await sql.raw("PRAGMA synchronous = NORMAL").run()
            try await sql.raw("PRAGMA foreign_keys = ON").run()
            try await sql.raw("PRAGMA wal_autocheckpoint = 0").run()
            checkpointer = try await WALCheckpointer.open(path: path, interval: checkpointInterval, logger: quietLogger)
        } catch {
            try? await connection.close().get()
            try? await threadPool.shutdownGracefully()
            throw error
        }
        let store = SQLiteStore(connection: connection, threadPool: threadPool, checkpointer: checkpointer, path: path)
        store.restrictPermissions()
        return store
    }

    /// Makes the database files owner-only (they hold keys, tokens and personal data).
    package func restrictPermissions() {
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
    }

    private var database: any SQLDatabase {
        connection.sql(queryLogLevel: nil)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    package func transaction<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await exclusively {
            let database = self.database
            try await database.raw("BEGIN IMMEDIATE").run()
            let result: Result
            do {
                result = try await body(database)
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
            }
            try await database.raw("COMMIT").run()
            return result
        }
    }

    /// Runs `body` outside a transaction (reads), still one call at a time.
    package func read<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await exclusively { try await body(self.database) }
    }

    /// Runs `body` on the connection's thread, holding the lock, unless the store is closed; then,
    /// every ``WALCheckpointer/interval`` calls, a checkpoint beside the connection.
    private func exclusively<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        let result = try await withTaskExecutorPreference(executor) {
            try await lock.withLock {
                guard !closed.withLock({ $0 }) else { throw SQLiteStoreClosed(path: path) }
                return try await body()
            }
        }
        if checkpointer.countCall() { await checkpointer.checkpoint() }
        return result
    }

    /// Closes the connection; the store is unusable afterwards.
    package func close() async {
        await lock.lock()
        closed.withLock { $0 = true }
        try? await connection.close().get()  // the future form: runs even when this task is cancelled
        try? await threadPool.shutdownGracefully()
        await checkpointer.close()  // the last connection: SQLite checkpoints what is left
        await lock.unlock()
    }
}

/// A call on a ``SQLiteStore`` after ``SQLiteStore/close()``.
package struct SQLiteStoreClosed: Error, CustomStringConvertible {
    /// The database file.
    package let path: String
    package var description: String { "the SQLite database \(path) is closed" }
}

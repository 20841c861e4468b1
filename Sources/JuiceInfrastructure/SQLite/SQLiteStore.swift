import Foundation
import JuiceSQLite
import Logging
import NIOCore
import NIOPosix
import SQLKit
import Synchronization

/// A SQLite file in WAL mode with a busy timeout and foreign keys on, on one connection with its own
/// I/O thread: the store under the emulator's state and under Juice's SQLite database.
///
/// SQLite blocks the thread it runs on (including `fsync` at commit), so the connection gets a
/// dedicated one-thread pool rather than NIO's shared blocking pool: a slow disk or bcrypt work
/// elsewhere in the process cannot queue in front of its queries.
///
/// Transactions that arrive together share one commit (group commit, ``transaction(_:)``), each in
/// its own savepoint. Each call runs on that thread (``ThreadPoolTaskExecutor``), and its statements
/// run there as they are called (``SQLiteHandleDatabase``), each compiled once and kept
/// (``SQLiteHandle``).
/// Calls run one at a time in arrival order (``AsyncLock``), so a transaction's statements never
/// interleave with another call's; several processes on one file are serialized by SQLite's own
/// locking (`BEGIN IMMEDIATE` plus the busy timeout). Queries are never logged: binds hold personal
/// data and secrets. The file (and its `-wal`/`-shm`) is owner-only, its directory 0700. Checkpoints
/// run beside the connection, not in its commits (``WALCheckpointer``).
package final class SQLiteStore: Sendable {
    private let connection: SQLiteHandle
    private let database: SQLiteHandleDatabase
    private let threadPool: NIOThreadPool
    private let executor: ThreadPoolTaskExecutor
    private let checkpointer: WALCheckpointer
    private let lock = AsyncLock()
    private let queue: GroupCommitQueue
    /// Set by ``close()``; later calls fail with ``SQLiteStoreClosed`` without touching the connection.
    private let closed = Mutex(false)
    /// The database file.
    package let path: String

    private init(connection: SQLiteHandle, logger: Logger, threadPool: NIOThreadPool, checkpointer: WALCheckpointer, maximumGroup: Int, path: String)
    {
        self.connection = connection
        self.database = SQLiteHandleDatabase(handle: connection, logger: logger, eventLoop: MultiThreadedEventLoopGroup.singleton.any())
        self.queue = GroupCommitQueue(maximumGroup: maximumGroup)
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
    ///   - maximumGroup: The most transactions that share one commit (``transaction(_:)``).
    ///   - logger: Receives connection messages at info and above.
    package static func open(
        path: String, busyTimeout: Duration = .seconds(5), checkpointInterval: Int = 200, maximumGroup: Int = 32, logger: Logger
    ) async throws -> SQLiteStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var quietLogger = logger
        quietLogger.logLevel = max(logger.logLevel, .info)
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        let connection: SQLiteHandle
        do {
            connection = try await threadPool.runIfActive {
                let connection = try SQLiteHandle.open(path: path)
                do {
                    for pragma in [
                        "PRAGMA busy_timeout = \(milliseconds)", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
                        "PRAGMA foreign_keys = ON", "PRAGMA wal_autocheckpoint = 0",
                        // As sqlite-nio's build of SQLite had them (Debian's differs in the second): deleted
                        // rows' bytes overwritten; REPLACE's deletions fire no delete trigger.
                        "PRAGMA secure_delete = ON", "PRAGMA recursive_triggers = OFF",
                    ] {
                        try connection.run(pragma, []) { _ in }
                    }
                } catch {
                    connection.close()
                    throw error
                }
                return connection
            }
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
        let checkpointer: WALCheckpointer
        do {
            checkpointer = try await WALCheckpointer.open(path: path, interval: checkpointInterval)
        } catch {
            try? await threadPool.runIfActive { connection.close() }
            try? await threadPool.shutdownGracefully()
            throw error
        }
        let store = SQLiteStore(
            connection: connection, logger: quietLogger, threadPool: threadPool, checkpointer: checkpointer, maximumGroup: maximumGroup, path: path)
        store.restrictPermissions()
        return store
    }

    /// Makes the database files owner-only (they hold keys, tokens and personal data).
    package func restrictPermissions() {
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Transactions that arrive while another group is committing share one `BEGIN IMMEDIATE … COMMIT`
    /// (one write to the log, one `fsync` at most), up to ``maximumGroup`` of them, in arrival order.
    /// Each runs inside its own savepoint: one that throws rolls back only its own statements and gets
    /// its error. A caller gets its result only after the shared `COMMIT` succeeded; when the commit
    /// fails (a deferred constraint, a full disk), every member of the group gets that error. Once
    /// queued, a transaction runs even if its caller is cancelled (it runs on the store's committer
    /// task, not the caller's).
    package func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        guard !closed.withLock({ $0 }) else { throw SQLiteStoreClosed(path: path) }
        return try await withCheckedThrowingContinuation { continuation in
            if queue.enqueue(.answering(continuation, body: body)) {
                Task(executorPreference: executor) { await self.commitQueuedGroups() }
            }
        }
    }

    /// The most transactions that share one commit.
    package var maximumGroup: Int { queue.maximumGroup }

    /// How many statements the connection compiled since it opened (each text once while it stays in
    /// the cache): how tests see that a repeated statement is not compiled again.
    package var compiledStatements: Int { connection.compiledStatements }

    /// How many transactions wait for the next group (for tests that need a group to form).
    package var waitingTransactions: Int { queue.waiting }

    /// The committer: commits groups until none waits.
    private func commitQueuedGroups() async {
        while let group = queue.nextGroup() {
            await lock.lock()
            let committed = await commit(group)
            await lock.unlock()
            if committed, checkpointer.countCall() { await checkpointer.checkpoint() }
        }
    }

    /// Runs `group` in one transaction, each member in a savepoint, then answers every member; false
    /// when nothing was committed because the store is closed or the transaction could not start.
    private func commit(_ group: [GroupCommitMember]) async -> Bool {
        guard !closed.withLock({ $0 }) else {
            group.forEach { $0.finish(SQLiteStoreClosed(path: path)) }
            return false
        }
        let database = self.database
        do {
            try await database.raw("BEGIN IMMEDIATE").run()
        } catch {
            group.forEach { $0.finish(error) }
            return false
        }
        guard group.count > 1 else { return await commitAlone(group[0], on: database) }
        var outcomes: [(any Error)?] = []
        for (index, member) in group.enumerated() {
            do {
                outcomes.append(try await runInSavepoint(member, on: database))
            } catch {
                // The savepoint machinery failed, so SQLite may have rolled the whole transaction
                // back: the members that ran lose their work and get this error; the rest never ran
                // and wait for the next group.
                try? await database.raw("ROLLBACK").run()
                group[..<index].forEach { $0.finish(error) }
                member.finish(error)
                queue.requeue(group[(index + 1)...])
                return true
            }
        }
        do {
            try await database.raw("COMMIT").run()
        } catch {
            try? await database.raw("ROLLBACK").run()  // a failed COMMIT can leave the transaction open
            group.forEach { $0.finish(error) }
            return true
        }
        zip(group, outcomes).forEach { $0.finish($1) }
        return true
    }

    /// A group of one, already begun: no savepoint (two statements fewer); its error rolls back the
    /// whole transaction.
    private func commitAlone(_ member: GroupCommitMember, on database: any SQLDatabase) async -> Bool {
        do {
            try await member.run(database)
            try await database.raw("COMMIT").run()
        } catch {
            try? await database.raw("ROLLBACK").run()
            member.finish(error)
            return true
        }
        member.finish(nil)
        return true
    }

    /// Runs `member` in a savepoint: released when it returns (nil), rolled back to when it throws
    /// (its error). Throws only when the savepoint statements themselves fail.
    private func runInSavepoint(_ member: GroupCommitMember, on database: any SQLDatabase) async throws -> (any Error)? {
        try await database.raw("SAVEPOINT juice_member").run()
        do {
            try await member.run(database)
        } catch {
            try await database.raw("ROLLBACK TO juice_member").run()
            try await database.raw("RELEASE juice_member").run()
            return error
        }
        try await database.raw("RELEASE juice_member").run()
        return nil
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

    /// Calls `observer` on the store's thread each time a transaction is about to commit (SQLite's
    /// commit hook), until the store closes: how tests count commits.
    package func observeCommits(_ observer: @escaping @Sendable () -> Void) async throws {
        try connection.observeCommits(observer)
    }

    /// Closes the connection; the store is unusable afterwards.
    package func close() async {
        await lock.lock()
        closed.withLock { $0 = true }
        let connection = self.connection
        // The future form: runs even when this task is cancelled.
        try? await threadPool.runIfActive(eventLoop: MultiThreadedEventLoopGroup.singleton.any()) { connection.close() }.get()
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

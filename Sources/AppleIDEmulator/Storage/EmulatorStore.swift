import Foundation
import Logging
import NIOPosix
import SQLiteKit

/// The emulator's persistent state: one SQLite file (WAL mode) under the data directory.
///
/// Every operation runs in a transaction on the store's single connection; transactions run one at
/// a time, in arrival order, so each one sees and leaves a consistent state. The connection has its
/// own I/O thread: SQLite blocks it (including `fsync` at commit), and NIO's shared blocking pool is
/// not the place to queue that behind other work.
final class EmulatorStore: Sendable {
    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool
    private let lock = AsyncLock()
    let path: String

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool, path: String) {
        self.connection = connection
        self.threadPool = threadPool
        self.path = path
    }

    /// Opens (creating if needed) `emulator.sqlite` in `directory` and brings its schema up to date.
    static func open(directory: URL, logger: Logger) async throws -> EmulatorStore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("emulator.sqlite").path
        var sqliteLogger = logger
        sqliteLogger.logLevel = max(logger.logLevel, .info)
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, logger: sqliteLogger, on: MultiThreadedEventLoopGroup.singleton.any()
            )
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
        let store = EmulatorStore(connection: connection, threadPool: threadPool, path: path)
        let database = store.database
        try await database.raw("PRAGMA journal_mode=WAL").run()
        try await database.raw("PRAGMA synchronous=NORMAL").run()
        try await database.raw("PRAGMA foreign_keys=ON").run()
        try await store.transaction { database in
            for statement in EmulatorSchema.statements {
                try await database.raw(SQLQueryString(statement)).run()
            }
        }
        // The database holds signing keys: owner only.
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
        return store
    }

    /// SQL access without query logging (binds can hold personal data).
    private var database: any SQLDatabase {
        connection.sql(queryLogLevel: nil)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        await lock.lock()
        do {
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
            await lock.unlock()
            return result
        } catch {
            await lock.unlock()
            throw error
        }
    }

    /// Closes the connection; the store is unusable afterwards.
    func close() async {
        await lock.lock()
        try? await connection.close().get()  // the future form: runs even when this task is cancelled
        try? await threadPool.shutdownGracefully()
        await lock.unlock()
    }
}

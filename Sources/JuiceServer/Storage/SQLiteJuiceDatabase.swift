import JuiceInfrastructure
import Logging
import SQLKit

/// ``JuiceDatabase`` on a SQLite file (``SQLiteStore``: WAL mode, a busy timeout, one connection with
/// its own I/O thread, calls one at a time in arrival order, owner-only files).
final class SQLiteJuiceDatabase: JuiceDatabase {
    private let store: SQLiteStore
    /// The database file.
    var path: String { store.path }

    private init(store: SQLiteStore) {
        self.store = store
    }

    /// Opens (creating if needed) the SQLite file at `path`, with mode 0600 and its directory 0700.
    /// - Parameters:
    ///   - path: The database file.
    ///   - busyTimeout: How long a statement waits for another process's lock.
    ///   - logger: Receives connection messages (queries are never logged: binds hold personal data).
    static func open(path: String, busyTimeout: Duration = .seconds(5), logger: Logger) async throws -> SQLiteJuiceDatabase {
        SQLiteJuiceDatabase(store: try await SQLiteStore.open(path: path, busyTimeout: busyTimeout, logger: logger))
    }

    var supportsWritingCTEs: Bool { false }

    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await store.transaction(body)
    }

    func autocommit<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await store.read(body)
    }

    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await store.read(body)
    }

    func close() async {
        await store.close()
    }
}

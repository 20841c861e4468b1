import JuiceInfrastructure
import Logging
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The emulator's persistent state: `emulator.sqlite` (WAL mode) under the data directory.
///
/// Every operation that writes or reads more than one statement runs in a transaction on the store's
/// single connection; calls run one at a time, in arrival order, so each one sees and leaves a
/// consistent state. A lookup of one statement uses ``read(_:)`` (no `BEGIN`/`COMMIT` round trips).
final class EmulatorStore: Sendable {
    private let store: SQLiteStore
    /// The database file.
    var path: String { store.path }

    private init(store: SQLiteStore) {
        self.store = store
    }

    /// Opens (creating if needed) `emulator.sqlite` in `directory` and brings its schema up to date.
    static func open(directory: URL, logger: Logger) async throws -> EmulatorStore {
        let store = try await SQLiteStore.open(path: directory.appendingPathComponent("emulator.sqlite").path, logger: logger)
        do {
            try await store.transaction { database in
                for statement in EmulatorSchema.statements {
                    try await database.raw(SQLQueryString(statement)).run()
                }
            }
        } catch {
            await store.close()
            throw error
        }
        // The database holds signing keys: owner only (the WAL files exist now).
        store.restrictPermissions()
        return EmulatorStore(store: store)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await store.transaction(body)
    }

    /// Runs `body`, one reading statement, without `BEGIN`/`COMMIT` (a single statement is
    /// consistent by itself), still one call at a time.
    func read<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await store.read(body)
    }

    /// Closes the connection; the store is unusable afterwards.
    func close() async {
        await store.close()
    }
}

import SQLKit

/// The SQL database the server's stores run on.
///
/// Every store writes through ``transaction(_:)``: a write that spans tables is one transaction.
/// Queries are SQLKit builders or portable SQL (no SQLite-only syntax), so the same code runs on
/// SQLite and PostgreSQL; an implementation only has to provide a session-bound
/// `SQLDatabase` per call.
protocol JuiceDatabase: Sendable {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body`, which issues exactly one statement, without an explicit transaction: the
    /// statement is atomic by itself and commits on its own (no `BEGIN`/`COMMIT` round trips on the
    /// sign-in path).
    ///
    /// On a connection found lost, the statement may run once more, so it must *fail closed* when
    /// repeated after it took effect: an insert of a unique key (the repeat is refused), a delete that
    /// returns the row (the repeat finds nothing). Never an update that adds or a plain insert.
    func autocommit<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Whether one statement may change tables in its `WITH` clauses and read what they returned
    /// (PostgreSQL). SQLite may not, so its callers issue those statements one by one.
    var supportsWritingCTEs: Bool { get }

    /// Runs `body` with the database outside an explicit transaction (single statements, reads).
    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body` while holding a lock that other processes migrating the same database wait for
    /// (PostgreSQL: an advisory lock). The default runs `body` directly.
    func withMigrationLock<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result

    /// Closes the database; it is unusable afterwards.
    func close() async
}

extension JuiceDatabase {
    func withMigrationLock<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await body()
    }
}

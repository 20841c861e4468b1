import SQLKit

/// The SQL database the server's stores run on.
///
/// Every store writes through ``transaction(_:)``: a write that spans tables is one transaction.
/// Queries are SQLKit builders or portable SQL (no SQLite-only syntax), so the same code runs on
/// SQLite now and PostgreSQL later; an implementation only has to provide a session-bound
/// `SQLDatabase` per call.
public protocol JuiceDatabase: Sendable {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body` with the database outside an explicit transaction (single statements, reads).
    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Closes the database; it is unusable afterwards.
    func close() async
}

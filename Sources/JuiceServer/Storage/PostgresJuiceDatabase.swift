import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// A PostgreSQL database for several `juice serve` instances at once.
///
/// Every ``transaction(_:)`` runs on a connection of its own between `BEGIN` and `COMMIT`, so its
/// statements never mix with another call's. Single-use values (state, nonce, code, `jti`) are
/// enforced by the database (`DELETE … RETURNING`, primary keys, `ON CONFLICT DO NOTHING`), so
/// every instance on the same database sees one truth. A transaction that loses a race — a
/// serialization failure, a deadlock, or a unique violation from a concurrent insert of the same
/// key — is run again (at most three times), which gives the answer SQLite's one-writer-at-a-time
/// locking gives: the second attempt sees the winner's row.
///
/// ```swift
/// let database = try await PostgresJuiceDatabase.open(url: "postgres://juice:secret@127.0.0.1:5432/juice", logger: logger)
/// try await SchemaMigrator().migrate(database, now: Date(), logger: logger)
/// ```
final class PostgresJuiceDatabase: JuiceDatabase {
    private let pool: PostgresConnectionPool
    /// Where the database is, password hidden.
    let location: String

    private init(pool: PostgresConnectionPool, location: String) {
        self.pool = pool
        self.location = location
    }

    /// How many connections this database has tried to open (``PostgresConnectionPool/connectionAttempts``).
    var connectionAttempts: Int { pool.connectionAttempts }

    /// Connects to `url` (`postgres://user:password@host:port/database`, `?sslmode=disable|prefer|require`),
    /// checking once that the server answers.
    /// - Parameters:
    ///   - url: The database URL.
    ///   - maximumConnections: The most connections this process opens (at least 2).
    ///   - connectTimeout: How long opening one connection may take.
    ///   - logger: Receives connection messages (queries are never logged: binds hold personal data).
    /// - Throws: ``DatabaseLocationError`` naming the problem (never the password).
    static func open(
        url: String, maximumConnections: Int = 10, connectTimeout: Duration = .seconds(5), logger: Logger
    ) async throws -> PostgresJuiceDatabase {
        let redacted = DatabaseLocation.redacted(url)
        var configuration: PostgresConnection.Configuration
        do {
            configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        } catch {
            throw DatabaseLocationError(
                .invalidURL, "\(redacted) is not a usable PostgreSQL URL (postgres://user:password@host:5432/database[?sslmode=disable])")
        }
        configuration.options.connectTimeout = .seconds(connectTimeout.components.seconds)
        var quietLogger = logger
        quietLogger.logLevel = max(logger.logLevel, .info)
        let database = PostgresJuiceDatabase(
            pool: PostgresConnectionPool(configuration: configuration, maximum: maximumConnections, logger: quietLogger), location: redacted
        )
        do {
            try await database.read { sql in try await sql.raw("SELECT 1").run() }
        } catch {
            await database.close()
            throw DatabaseLocationError(.unreachable, "cannot use PostgreSQL at \(redacted): \(Self.describe(error))")
        }
        return database
    }

    var supportsWritingCTEs: Bool { true }

    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try await transactionOnce(body)
            } catch let error as StaleConnection {
                // Nothing ran: BEGIN found the pooled connection dead. Once more on a fresh one.
                guard attempt < 3 else { throw error.underlying }
                attempt += 1
            } catch  where attempt < 3 && Self.isRetryable(error) {
                attempt += 1
            }
        }
    }

    /// One round trip instead of three: callers pass only statements that fail closed when repeated
    /// (see ``JuiceDatabase/autocommit(_:)``), so it may run once more like a read.
    func autocommit<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await outsideTransaction(body)
    }

    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await outsideTransaction(body)
    }

    /// `body` on a pooled connection without `BEGIN`; once more on a fresh connection when the pooled
    /// one had been closed by the server (restart, idle timeout). Only for work that is safe to repeat.
    private func outsideTransaction<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        do {
            return try await pool.withConnection { connection in try await body(connection.sql(queryLogLevel: nil)) }
        } catch  where Self.isConnectionLost(error) {
            return try await pool.withConnection { connection in try await body(connection.sql(queryLogLevel: nil)) }
        }
    }

    /// Holds a PostgreSQL advisory lock (on a connection of its own) while `body` runs, so instances
    /// starting together migrate one after the other.
    func withMigrationLock<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await pool.withConnection { connection in
            let sql = connection.sql(queryLogLevel: nil)
            try await sql.raw("SELECT pg_advisory_lock(\(bind: Self.migrationLockKey))").run()
            do {
                let result = try await body()
                try await sql.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
                return result
            } catch {
                // Closing the session would release it too; unlock explicitly so the connection is reusable.
                try? await sql.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
                throw error
            }
        }
    }

    func close() async {
        await pool.close()
    }

    /// The advisory lock key migrations take ("juice" in ASCII).
    static let migrationLockKey: Int64 = 0x6A75_6963_65

    private func transactionOnce<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await pool.withConnection { connection in
            let sql = connection.sql(queryLogLevel: nil)
            do {
                try await sql.raw("BEGIN").run()
            } catch  where Self.isConnectionLost(error) {
                throw StaleConnection(underlying: error)
            }
            let result: Result
            do {
                result = try await body(sql)
                try await sql.raw("COMMIT").run()
            } catch {
                do {
                    try await sql.raw("ROLLBACK").run()
                } catch {
                    // A connection in an unknown transaction state must not be reused.
                    try? await connection.close()
                }
                throw error
            }
            return result
        }
    }

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Whether the connection was gone before or while the statement ran.
    static func isConnectionLost(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return error.code == .serverClosedConnection || error.code == .clientClosedConnection || error.code == .uncleanShutdown
            || error.code == .connectionError
    }

    /// BEGIN failed on a dead pooled connection: the transaction never started.
    struct StaleConnection: Error {
        let underlying: any Error
    }

    /// Serialization failure, deadlock, or a unique violation by a concurrent writer.
    static func isRetryable(_ error: any Error) -> Bool {
        guard let state = sqlState(error) else { return false }
        return state == "40001" || state == "40P01" || state == "23505"
    }

    /// A short, password-free description of a connection or server error.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            if let underlying = error.underlying {
                return String(describing: underlying).prefix(200).description
            }
            return error.code.description
        }
        return String(describing: error).prefix(200).description
    }
}

import JuiceSQLite
import Logging
import NIOCore
import SQLKit
import SQLiteKit

/// SQLKit's `SQLDatabase` over a ``SQLiteHandle``: what a store's statements run on with SQLite.
///
/// A statement runs at once on the caller's thread, its rows handed to `onRow` as it steps: no thread
/// pool hop and no event-loop hop per statement or per row (sqlite-nio made three). ``SQLiteStore``
/// calls it only on its own thread, one call at a time. The SQL is written by sqlite-kit's
/// `SQLiteDialect` and the values are converted by its `SQLiteDataEncoder` and `SQLiteDataDecoder`, so
/// what is stored is unchanged. The dialect reads the version of sqlite-nio's own copy of SQLite (linked
/// but unused), not the system's; the features it switches on by version, `UPSERT` (3.24) and
/// `RETURNING` (3.35), are ones ``SQLiteHandle`` requires before it opens a file (its `minimumVersion`).
/// Queries are never logged: binds hold personal data and secrets.
struct SQLiteHandleDatabase: SQLDatabase {
    let handle: SQLiteHandle
    let logger: Logger
    /// Only for SQLKit's future-returning API; no statement runs on it.
    let eventLoop: any EventLoop

    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        do {
            try run(query, onRow)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try run(query, onRow)
    }

    private func run(_ query: any SQLExpression, _ onRow: @Sendable (any SQLRow) -> Void) throws {
        let (sql, binds) = serialize(query)
        try handle.run(sql, try binds.map { SQLiteValue(try Self.encoder.encode($0)) }) { onRow(SQLiteResultRow(row: $0)) }
    }

    /// One encoder for every statement (each holds a `JSONEncoder`).
    private static let encoder = SQLiteDataEncoder()
}

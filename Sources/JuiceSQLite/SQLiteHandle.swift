internal import CSQLite3
import Synchronization

/// One connection to a SQLite file through the system's SQLite library, which keeps the statements it
/// compiles: the second use of a statement's text binds and steps what the first one compiled.
///
/// Every call blocks the thread it runs on (SQLite does its reads, writes and `fsync`s there); the
/// store calls it only on its own thread. The connection is opened in SQLite's serialized mode, and a
/// kept statement is taken out of the cache while it runs, so two callers never share one.
///
/// At most ``capacity`` statement texts are kept; when a new one comes, the one used longest ago is
/// freed (the stores' statements are a fixed set, but a migration's run once and are never used again).
package final class SQLiteHandle: Sendable {
    /// The `sqlite3` connection. Not `Sendable` by its type; SQLite's serialized mode makes it safe to
    /// call from any thread.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// A kept statement and when it was last put back.
    private struct Kept {
        let statement: SQLitePreparedStatement
        let lastUse: UInt64
    }

    private struct State: ~Copyable {
        /// The connection; nil once closed.
        var connection: Connection?
        var statements: [String: Kept] = [:]
        /// Counts uses: a kept statement's ``Kept/lastUse`` orders them for eviction.
        var uses: UInt64 = 0
        /// How many statements were compiled (for tests and the benchmark's account).
        var compiled = 0
    }

    private let state: Mutex<State>
    private let commitObservers: SQLiteCommitObservers
    /// The most statement texts kept.
    package let capacity: Int

    private init(connection: OpaquePointer, capacity: Int) {
        self.state = Mutex(State(connection: Connection(pointer: connection)))
        self.capacity = capacity
        self.commitObservers = SQLiteCommitObservers()
    }

    /// The oldest SQLite the stores run on: `RETURNING` came in 3.35.0.
    package static let minimumVersion: Int32 = 3_035_000

    /// Opens (creating if needed) the database file at `path`. Blocks while SQLite opens the file.
    /// - Throws: ``SQLiteFailure`` when the file cannot be opened or the library is older than
    ///   ``minimumVersion``.
    package static func open(path: String, capacity: Int = 256) throws -> SQLiteHandle {
        let version = sqlite3_libversion_number()
        guard version >= minimumVersion else {
            throw SQLiteFailure(
                code: Int32(SQLITE_ERROR),
                message: "the system's SQLite is \(String(cString: sqlite3_libversion())); Juice needs 3.35.0 or newer (RETURNING)")
        }
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(fileName(for: path), &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let failure = SQLiteFailure(code: status, on: connection)
            sqlite3_close_v2(connection)
            throw failure
        }
        return SQLiteHandle(connection: connection, capacity: max(0, capacity))
    }

    /// The name SQLite is given for `path`. Debian builds SQLite with `SQLITE_USE_URI`, so a name that
    /// begins with `file:` would be read as a URI with options of its own (`mode=memory`, `vfs=…`); a
    /// relative path gets `./` in front, so that a path always names a file.
    static func fileName(for path: String) -> String {
        path.hasPrefix("/") ? path : "./" + path
    }

    /// Runs `sql` with `binds` for its parameters (in order), calling `onRow` for each row it returns.
    /// - Throws: ``SQLiteFailure`` (from SQLite, or for a closed connection), or what `onRow` throws.
    package func run(_ sql: String, _ binds: [SQLiteValue], _ onRow: (SQLiteFetchedRow) throws -> Void) throws {
        let (connection, kept) = try state.withLock { state -> (Connection, SQLitePreparedStatement?) in
            guard let connection = state.connection else { throw SQLiteFailure(code: Int32(SQLITE_MISUSE), message: "the connection is closed") }
            return (connection, state.statements.removeValue(forKey: sql)?.statement)
        }
        let statement: SQLitePreparedStatement
        if let kept {
            statement = kept
        } else {
            statement = try SQLitePreparedStatement.prepare(sql, on: connection.pointer, persistent: true)
            state.withLock { $0.compiled += 1 }
        }
        defer { putBack(statement, for: sql) }
        try statement.run(binds, on: connection.pointer, onRow)
    }

    /// Returns `statement` to the cache, freeing the statement used longest ago when the cache is full;
    /// frees `statement` instead when the cache holds that text already (two callers compiled it at
    /// once), has no room at all, or the connection was closed meanwhile.
    private func putBack(_ statement: SQLitePreparedStatement, for sql: String) {
        let freed: SQLitePreparedStatement? = state.withLock { state in
            guard state.connection != nil, state.statements[sql] == nil, capacity > 0 else { return statement }
            var evicted: SQLitePreparedStatement?
            if state.statements.count >= capacity, let oldest = state.statements.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                evicted = state.statements.removeValue(forKey: oldest.key)?.statement
            }
            state.uses += 1
            state.statements[sql] = Kept(statement: statement, lastUse: state.uses)
            return evicted
        }
        freed?.finalize()
    }

    /// How many statement texts are kept now.
    package var keptStatements: Int { state.withLock { $0.statements.count } }

    /// How many statements were compiled since the connection opened.
    package var compiledStatements: Int { state.withLock { $0.compiled } }

    /// Calls `observer` each time a transaction is about to commit (SQLite's commit hook), on the
    /// committing thread, until the connection closes.
    package func observeCommits(_ observer: @escaping @Sendable () -> Void) throws {
        try state.withLock { state in
            guard let connection = state.connection else { throw SQLiteFailure(code: Int32(SQLITE_MISUSE), message: "the connection is closed") }
            commitObservers.add(observer, on: connection.pointer)
        }
    }

    /// Frees the kept statements and closes the connection; later calls fail. A statement running
    /// meanwhile finishes first (SQLite keeps the connection until its last statement is freed).
    package func close() {
        let (connection, statements) = state.withLock { state in
            defer {
                state.connection = nil
                state.statements = [:]
            }
            return (state.connection, state.statements.values.map(\.statement))
        }
        statements.forEach { $0.finalize() }
        if let connection { sqlite3_close_v2(connection.pointer) }
    }
}

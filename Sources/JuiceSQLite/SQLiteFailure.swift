internal import CSQLite3

/// A SQLite call that failed: its (extended) result code and SQLite's message for it.
///
/// The message is SQLite's own ("UNIQUE constraint failed: accounts.username", "database is locked"):
/// it names tables and columns, never a bound value, so it may be logged. The statement's text is not
/// part of it either.
package struct SQLiteFailure: Error, CustomStringConvertible, Equatable {
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY`, …).
    package let code: Int32
    /// SQLite's message for the failure.
    package let message: String

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The failure `code` left on `handle` (its message is read at once: the next call replaces it).
    init(code: Int32, on handle: OpaquePointer?) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message)
    }

    /// SQLite's primary result code (the low byte of ``code``), e.g. `SQLITE_CONSTRAINT` for every
    /// kind of constraint failure.
    package var primaryCode: Int32 { code & 0xFF }

    package var description: String { "SQLite error \(code): \(message)" }
}

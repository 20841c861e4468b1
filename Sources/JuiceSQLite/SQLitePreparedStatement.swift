internal import CSQLite3

/// A compiled statement of one ``SQLiteHandle``, kept between uses: each use binds its values, steps
/// through its rows and resets it.
///
/// Used by one caller at a time: ``SQLiteHandle`` takes it out of its cache while it runs and puts it
/// back afterwards, so no two callers hold it at once (hence `@unchecked Sendable`).
final class SQLitePreparedStatement: @unchecked Sendable {
    private let pointer: OpaquePointer
    /// The result columns' names, read once and again only after SQLite recompiled the statement (a
    /// schema change can change what `SELECT *` returns).
    private var columns: [String]
    /// SQLite's count of recompilations when ``columns`` was read.
    private var compilations: Int32

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
        self.columns = Self.columnNames(of: pointer)
        self.compilations = sqlite3_stmt_status(pointer, Int32(SQLITE_STMTSTATUS_REPREPARE), 0)
    }

    /// Compiles the one statement in `sql` on the connection `handle`.
    /// - Parameter persistent: Whether the statement is kept for many uses (SQLite then allocates it
    ///   outside its short-lived memory).
    /// - Throws: ``SQLiteFailure`` for SQL that does not compile, holds no statement or more than one.
    static func prepare(_ sql: String, on handle: OpaquePointer, persistent: Bool) throws -> SQLitePreparedStatement {
        var pointer: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        // What follows the first statement may only be blanks and semicolons: a second statement would
        // otherwise be dropped without a word.
        let (status, restIsBlank) = sql.withCString { text in
            var rest: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v3(handle, text, -1, flags, &pointer, &rest)
            return (status, rest.map(Self.isBlank) ?? true)
        }
        guard status == SQLITE_OK else {
            sqlite3_finalize(pointer)
            throw SQLiteFailure(code: status, on: handle)
        }
        guard let pointer else {
            throw SQLiteFailure(code: Int32(SQLITE_MISUSE), message: "no statement in the SQL text")
        }
        guard restIsBlank else {
            sqlite3_finalize(pointer)
            throw SQLiteFailure(code: Int32(SQLITE_MISUSE), message: "more than one statement in one call")
        }
        return SQLitePreparedStatement(pointer: pointer)
    }

    /// Whether the C string at `text` holds only blanks and semicolons.
    private static func isBlank(_ text: UnsafePointer<CChar>) -> Bool {
        var cursor = text
        while cursor.pointee != 0 {
            switch UInt8(bitPattern: cursor.pointee) {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"): cursor += 1
            default: return false
            }
        }
        return true
    }

    /// Binds `binds` to the statement's parameters in order, calls `onRow` for each row, and resets the
    /// statement (and clears its bindings) whatever happens, so that it holds no lock and no value.
    /// - Throws: ``SQLiteFailure`` from SQLite (a constraint, a busy database, a wrong parameter
    ///   count), or what `onRow` throws.
    func run(_ binds: [SQLiteValue], on handle: OpaquePointer, _ onRow: (SQLiteFetchedRow) throws -> Void) throws {
        defer {
            sqlite3_reset(pointer)
            sqlite3_clear_bindings(pointer)
        }
        let parameters = sqlite3_bind_parameter_count(pointer)
        guard Int(parameters) == binds.count else {
            throw SQLiteFailure(code: Int32(SQLITE_RANGE), message: "the statement takes \(parameters) values, \(binds.count) were given")
        }
        for (offset, value) in binds.enumerated() {
            let status = bind(value, at: Int32(offset + 1))
            guard status == SQLITE_OK else { throw SQLiteFailure(code: status, on: handle) }
        }
        while true {
            let status = sqlite3_step(pointer)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw SQLiteFailure(code: status, on: handle) }
            try onRow(SQLiteFetchedRow(columns: currentColumns(), values: values()))
        }
    }

    /// Frees the statement; it must not be used afterwards.
    func finalize() {
        sqlite3_finalize(pointer)
    }

    private func bind(_ value: SQLiteValue, at index: Int32) -> Int32 {
        switch value {
        case .integer(let integer):
            return sqlite3_bind_int64(pointer, index, integer)
        case .float(let double):
            return sqlite3_bind_double(pointer, index, double)
        case .text(let text):
            // Passed as a C string (so "" is an empty text, not NULL); SQLite copies the bytes.
            return sqlite3_bind_text64(pointer, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .blob(let bytes):
            guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(pointer, index, 0) }  // empty, not NULL
            return bytes.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(pointer, index, bytes.baseAddress, UInt64(bytes.count), Self.transient)
            }
        case .null:
            return sqlite3_bind_null(pointer, index)
        }
    }

    /// The current row's values (valid until the next step).
    private func values() -> [SQLiteValue] {
        let count = sqlite3_column_count(pointer)
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count {
            switch sqlite3_column_type(pointer, index) {
            case SQLITE_INTEGER:
                values.append(.integer(sqlite3_column_int64(pointer, index)))
            case SQLITE_FLOAT:
                values.append(.float(sqlite3_column_double(pointer, index)))
            case SQLITE_TEXT:
                let text = sqlite3_column_text(pointer, index)
                let length = Int(sqlite3_column_bytes(pointer, index))
                values.append(.text(text.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""))
            case SQLITE_BLOB:
                let bytes = sqlite3_column_blob(pointer, index)
                let length = Int(sqlite3_column_bytes(pointer, index))
                values.append(.blob(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []))
            default:
                values.append(.null)
            }
        }
        return values
    }

    /// The column names, read again only when SQLite has recompiled the statement since.
    private func currentColumns() -> [String] {
        let compilations = sqlite3_stmt_status(pointer, Int32(SQLITE_STMTSTATUS_REPREPARE), 0)
        if compilations != self.compilations {
            self.compilations = compilations
            columns = Self.columnNames(of: pointer)
        }
        return columns
    }

    private static func columnNames(of pointer: OpaquePointer) -> [String] {
        (0..<sqlite3_column_count(pointer)).map { index in sqlite3_column_name(pointer, index).map { String(cString: $0) } ?? "" }
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies a bound text or blob before the call returns.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}

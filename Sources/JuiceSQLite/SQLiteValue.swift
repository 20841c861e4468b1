/// A value as SQLite stores it: one of its five storage classes.
package enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case float(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// One row a statement returned: its column names (shared by every row of the statement) and values.
package struct SQLiteFetchedRow: Sendable {
    /// The column names, in order.
    package let columns: [String]
    /// The values, in column order.
    package let values: [SQLiteValue]

    package init(columns: [String], values: [SQLiteValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the first column named `column`, or nil when the row has none.
    package subscript(column: String) -> SQLiteValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }
}

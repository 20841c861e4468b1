import JuiceSQLite
import NIOCore
import SQLKit
import SQLiteKit

/// A row from a ``SQLiteHandle`` read through SQLKit's `SQLRow`. Values decode with sqlite-kit's
/// `SQLiteDataDecoder`, as they did when sqlite-nio ran the statements, so every store reads what it
/// wrote before.
struct SQLiteResultRow: SQLRow {
    let row: SQLiteFetchedRow

    var allColumns: [String] { row.columns }

    func contains(column: String) -> Bool {
        row.columns.contains(column)
    }

    func decodeNil(column: String) throws -> Bool {
        row[column] ?? .null == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let value = row[column] else { throw SQLiteMissingColumn(column: column) }
        return try Self.decoder.decode(D.self, from: value.sqliteData)
    }

    /// One decoder for every row (each holds a `JSONDecoder`).
    private static let decoder = SQLiteDataDecoder()
}

extension SQLiteValue {
    /// The value as sqlite-kit's encoder and decoder see it.
    var sqliteData: SQLiteData {
        switch self {
        case .integer(let integer): .integer(Int(integer))
        case .float(let double): .float(double)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(ByteBuffer(bytes: bytes))
        case .null: .null
        }
    }

    /// `data`, the value sqlite-kit's encoder made of a bound value.
    init(_ data: SQLiteData) {
        switch data {
        case .integer(let integer): self = .integer(Int64(integer))
        case .float(let double): self = .float(double)
        case .text(let text): self = .text(text)
        case .blob(let buffer): self = .blob(Array(buffer.readableBytesView))
        case .null: self = .null
        }
    }
}

/// A column a row was asked for that the statement does not return.
package struct SQLiteMissingColumn: Error, CustomStringConvertible {
    /// The column's name.
    package let column: String
    package var description: String { "the row has no column \(column)" }
}

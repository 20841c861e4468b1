import Foundation
import Synchronization
import Testing

@testable import JuiceSQLite

/// ``SQLiteHandle`` keeps what it compiles, returns values as SQLite stored them, and refuses what it
/// cannot run as written.
@Suite("The SQLite connection: statements compiled once and kept, values as stored, refusals")
struct SQLiteHandleTests {
    /// A fresh database file in a directory of its own, removed afterwards.
    static func withHandle(capacity: Int = 128, _ body: (SQLiteHandle, String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.sqlite").path
        let handle = try SQLiteHandle.open(path: path, capacity: capacity)
        defer { handle.close() }
        try body(handle, path)
    }

    /// Every row `sql` returns.
    static func rows(_ handle: SQLiteHandle, _ sql: String, _ binds: [SQLiteValue] = []) throws -> [SQLiteFetchedRow] {
        var rows: [SQLiteFetchedRow] = []
        try handle.run(sql, binds) { rows.append($0) }
        return rows
    }

    @Test("a statement's second use compiles nothing: 100 inserts and 100 reads compile two statements")
    func statementsAreKept() throws {
        try Self.withHandle { handle, _ in
            try handle.run("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL)", []) { _ in }
            let before = handle.compiledStatements
            for number in 1...100 {
                try handle.run("INSERT INTO items (id, label) VALUES (?, ?)", [.integer(Int64(number)), .text("item \(number)")]) { _ in }
                let rows = try Self.rows(handle, "SELECT label FROM items WHERE id = ?", [.integer(Int64(number))])
                #expect(rows.map(\.values) == [[.text("item \(number)")]])
            }
            #expect(handle.compiledStatements - before == 2)
            #expect(handle.keptStatements == 3)  // the CREATE TABLE too
        }
    }

    @Test("values come back as stored: integers at both ends, a float, text with NUL and emoji, empty text and empty blob (not NULL), NULL")
    func valuesRoundTrip() throws {
        let values: [SQLiteValue] = [
            .integer(.min), .integer(.max), .integer(0), .float(-0.5), .float(1e300),
            .text("a\u{0}b 🍏 é"), .text(""), .blob([0, 1, 255, 0]), .blob([]), .null,
        ]
        try Self.withHandle { handle, _ in
            try handle.run("CREATE TABLE cells (id INTEGER PRIMARY KEY, value ANY)", []) { _ in }
            for (index, value) in values.enumerated() {
                try handle.run("INSERT INTO cells (id, value) VALUES (?, ?)", [.integer(Int64(index)), value]) { _ in }
            }
            let rows = try Self.rows(handle, "SELECT value, typeof(value) AS kind FROM cells ORDER BY id")
            #expect(rows.map { $0["value"] } == values)
            let kinds = ["integer", "integer", "integer", "real", "real", "text", "text", "blob", "blob", "null"]
            #expect(rows.map { $0["kind"] } == kinds.map { SQLiteValue.text($0) })
            #expect(rows.first?.columns == ["value", "kind"])
            #expect(rows.first?["missing"] == nil)
        }
    }

    @Test("a kept SELECT * learns the new column after ALTER TABLE (SQLite recompiles it; the names are read again)")
    func schemaChangeIsSeen() throws {
        try Self.withHandle { handle, _ in
            try handle.run("CREATE TABLE items (id INTEGER PRIMARY KEY)", []) { _ in }
            try handle.run("INSERT INTO items (id) VALUES (1)", []) { _ in }
            #expect(try Self.rows(handle, "SELECT * FROM items").first?.columns == ["id"])
            try handle.run("ALTER TABLE items ADD COLUMN label TEXT NOT NULL DEFAULT 'new'", []) { _ in }
            let row = try Self.rows(handle, "SELECT * FROM items").first
            #expect(row?.columns == ["id", "label"])
            #expect(row?["label"] == .text("new"))
        }
    }

    @Test("two statements in one text are refused and neither runs; a text with no statement is refused; blanks and semicolons after one are fine")
    func oneStatementPerCall() throws {
        try Self.withHandle { handle, _ in
            try handle.run("CREATE TABLE items (id INTEGER PRIMARY KEY);  ;\n", []) { _ in }
            #expect(throws: SQLiteFailure.self) {
                try handle.run("INSERT INTO items (id) VALUES (1); DROP TABLE items", []) { _ in }
            }
            #expect(throws: SQLiteFailure.self) { try handle.run("  ; ", []) { _ in } }
            #expect(try Self.rows(handle, "SELECT COUNT(*) AS n FROM items").first?["n"] == .integer(0))
        }
    }

    @Test("a wrong number of values is refused before anything runs (SQLITE_RANGE), and the statement is usable again")
    func wrongValueCount() throws {
        try Self.withHandle { handle, _ in
            try handle.run("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)", []) { _ in }
            let insert = "INSERT INTO items (id, label) VALUES (?, ?)"
            let failure = #expect(throws: SQLiteFailure.self) { try handle.run(insert, [.integer(1)]) { _ in } }
            #expect(failure?.code == 25)  // SQLITE_RANGE
            try handle.run(insert, [.integer(1), .text("one")]) { _ in }
            #expect(try Self.rows(handle, "SELECT label FROM items").map(\.values) == [[.text("one")]])
        }
    }

    @Test("a constraint failure carries SQLite's extended code and message, no bound value, and leaves no lock: another connection writes next")
    func constraintFailure() throws {
        try Self.withHandle { handle, path in
            try handle.run("CREATE TABLE people (name TEXT NOT NULL UNIQUE)", []) { _ in }
            let insert = "INSERT INTO people (name) VALUES (?)"
            try handle.run(insert, [.text("secret-name")]) { _ in }
            let failure = #expect(throws: SQLiteFailure.self) { try handle.run(insert, [.text("secret-name")]) { _ in } }
            #expect(failure?.primaryCode == 19)  // SQLITE_CONSTRAINT
            #expect(failure?.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(failure?.message == "UNIQUE constraint failed: people.name")
            #expect(failure.map { !"\($0)".contains("secret") } == true)
            let other = try SQLiteHandle.open(path: path)
            defer { other.close() }
            try other.run("PRAGMA busy_timeout = 0", []) { _ in }
            try other.run(insert, [.text("someone else")]) { _ in }
        }
    }

    @Test("a read left half-way by a throwing row handler is reset: the table can be written from another connection at once")
    func throwingRowHandlerResets() throws {
        struct Stop: Error {}
        try Self.withHandle { handle, path in
            try handle.run("CREATE TABLE items (id INTEGER PRIMARY KEY)", []) { _ in }
            for number in 1...3 { try handle.run("INSERT INTO items (id) VALUES (?)", [.integer(Int64(number))]) { _ in } }
            #expect(throws: Stop.self) { try handle.run("SELECT id FROM items", []) { _ in throw Stop() } }
            try handle.run("PRAGMA journal_mode = DELETE", []) { _ in }  // a reader would block a rollback-journal writer
            let other = try SQLiteHandle.open(path: path)
            defer { other.close() }
            try other.run("PRAGMA busy_timeout = 0", []) { _ in }
            try other.run("INSERT INTO items (id) VALUES (4)", []) { _ in }
        }
    }

    @Test("no more statement texts are kept than the capacity: a new one frees the one used longest ago, the others stay compiled")
    func capacityBound() throws {
        try Self.withHandle(capacity: 2) { handle, _ in
            func select(_ number: Int) throws {
                let value = try Self.rows(handle, "SELECT \(number) AS n").first?["n"]
                #expect(value == .integer(Int64(number)))
            }
            try select(1)
            try select(2)
            try select(1)  // 2 is now the one used longest ago
            try select(3)  // frees 2
            #expect(handle.keptStatements == 2)
            let compiled = handle.compiledStatements
            try select(1)
            try select(3)
            #expect(handle.compiledStatements == compiled, "1 and 3 stayed compiled")
            try select(2)
            #expect(handle.compiledStatements == compiled + 1, "2 was freed and is compiled again")
            #expect(handle.keptStatements == 2)
        }
    }

    @Test("with no room at all nothing is kept and every statement still runs")
    func noCapacity() throws {
        try Self.withHandle(capacity: 0) { handle, _ in
            for _ in 1...3 {
                let value = try Self.rows(handle, "SELECT 7 AS n").first?["n"]
                #expect(value == .integer(7))
            }
            #expect(handle.keptStatements == 0)
            #expect(handle.compiledStatements == 3)
        }
    }

    @Test("the commit hook sees each commit; after close every call is refused, not a crash")
    func commitsAndClose() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let handle = try SQLiteHandle.open(path: directory.appendingPathComponent("test.sqlite").path)
        let commits = Counter()
        try handle.observeCommits { commits.add() }
        try handle.run("CREATE TABLE items (id INTEGER PRIMARY KEY)", []) { _ in }
        try handle.run("BEGIN", []) { _ in }
        try handle.run("INSERT INTO items (id) VALUES (1)", []) { _ in }
        try handle.run("INSERT INTO items (id) VALUES (2)", []) { _ in }
        try handle.run("COMMIT", []) { _ in }
        #expect(commits.value == 2)
        handle.close()
        #expect(throws: SQLiteFailure.self) { try handle.run("SELECT 1", []) { _ in } }
        #expect(throws: SQLiteFailure.self) { try handle.observeCommits {} }
        handle.close()  // twice: nothing happens
    }

    @Test("a path is always a file: a relative one that begins with file: is not read as a URI with options")
    func pathsAreFiles() {
        #expect(SQLiteHandle.fileName(for: "file:test.sqlite?mode=memory") == "./file:test.sqlite?mode=memory")
        #expect(SQLiteHandle.fileName(for: "data/juice.sqlite") == "./data/juice.sqlite")
        #expect(SQLiteHandle.fileName(for: "/var/lib/juice/juice.sqlite") == "/var/lib/juice/juice.sqlite")
    }

    @Test("a file that is not a database is refused with SQLite's reason")
    func notADatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("text.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let handle = try SQLiteHandle.open(path: path)  // SQLite reads the header lazily
        defer { handle.close() }
        let failure = #expect(throws: SQLiteFailure.self) { try handle.run("SELECT * FROM sqlite_master", []) { _ in } }
        #expect(failure?.message == "file is not a database")
        #expect(throws: SQLiteFailure.self) { try SQLiteHandle.open(path: directory.appendingPathComponent("missing/dir/x.sqlite").path) }
    }
}

/// A count shared with a `@Sendable` closure.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

import Foundation
import JuiceInfrastructure
import JuiceTestSupport
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import Testing

/// The store runs on the system's SQLite since its statements are kept (``SQLiteStore``); files written
/// before, through sqlite-nio and its own copy of SQLite, must read the same, and the other way round.
@Suite("SQLite files: what sqlite-nio wrote the store reads, and what the store writes sqlite-nio reads")
struct SQLiteFileCompatibilityTests {
    /// One value of every kind the stores bind.
    struct Sample: Codable, Equatable, Sendable {
        var text = "Zoë 🍏 \"quoted\" 'single'"
        var integer = Int.min
        var double = 0.1
        var flag = true
        var date = Date(timeIntervalSince1970: 1_795_000_000.25)
        var bytes = Data([0, 1, 2, 255])
        var missing: String? = nil
        var empty = ""
    }

    static let columns = ["text", "integer", "double", "flag", "date", "bytes", "missing", "empty"]

    static func insert(_ sample: Sample, into database: any SQLDatabase) async throws {
        try await database.raw(
            """
            INSERT INTO samples (text, integer, double, flag, date, bytes, missing, empty) VALUES (\(bind: sample.text), \
            \(bind: sample.integer), \(bind: sample.double), \(bind: sample.flag), \(bind: sample.date), \(bind: sample.bytes), \
            \(bind: sample.missing), \(bind: sample.empty))
            """
        ).run()
    }

    static func read(from database: any SQLDatabase) async throws -> [Sample] {
        try await database.raw("SELECT \(unsafeRaw: columns.joined(separator: ", ")) FROM samples ORDER BY rowid").all().map { row in
            Sample(
                text: try row.decode(column: "text", as: String.self), integer: try row.decode(column: "integer", as: Int.self),
                double: try row.decode(column: "double", as: Double.self), flag: try row.decode(column: "flag", as: Bool.self),
                date: try row.decode(column: "date", as: Date.self), bytes: try row.decode(column: "bytes", as: Data.self),
                missing: try row.decode(column: "missing", as: String?.self), empty: try row.decode(column: "empty", as: String.self))
        }
    }

    /// The file through sqlite-nio (its own copy of SQLite), closed before `body` returns.
    static func withSQLiteNIO<T: Sendable>(_ path: String, _ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: .singleton, logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
        do {
            let result = try await body(connection.sql(queryLogLevel: nil))
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    @Test("rows written through sqlite-nio read back equal through the store, and rows the store writes read back equal through sqlite-nio")
    func bothWays() async throws {
        let temporary = try TemporaryDirectory("sqlite-compat")
        defer { temporary.remove() }
        let path = temporary.url.appendingPathComponent("old.sqlite").path
        let old = Sample()
        try await Self.withSQLiteNIO(path) { database in
            try await database.raw("CREATE TABLE samples (text, integer, double, flag, date, bytes, missing, empty)").run()
            try await Self.insert(old, into: database)
        }
        var new = Sample()
        new.text = "written by the store"
        new.integer = .max
        new.flag = false
        new.missing = "present"
        let store = try await SQLiteStore.open(path: path, logger: LogCapture().logger(level: .warning))
        let readByStore: Result<[Sample], any Error>
        do {
            try await store.transaction { [new] database in try await Self.insert(new, into: database) }
            readByStore = .success(try await store.read { try await Self.read(from: $0) })
        } catch {
            readByStore = .failure(error)
        }
        await store.close()
        #expect(try readByStore.get() == [old, new])
        let readBySQLiteNIO = try await Self.withSQLiteNIO(path) { try await Self.read(from: $0) }
        #expect(readBySQLiteNIO == [old, new])
    }
}

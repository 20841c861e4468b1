import Foundation
import JuiceInfrastructure
import JuiceTestSupport
import Logging
import SQLKit
import Testing

/// ``SQLiteStore`` runs each call on its connection's own thread (``ThreadPoolTaskExecutor``).
@Suite("The SQLite store: a call runs on the connection's thread, statements without thread hops")
struct SQLiteStoreTests {
    /// Warnings and errors, kept in memory (the store logs nothing else a test needs).
    static var logger: Logger { LogCapture().logger(level: .warning) }

    /// The name of the thread running the caller (NIO names its pool threads `TP-#n`), from Linux's
    /// `/proc/thread-self/comm`.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a transaction's body and every statement's continuation run on the store's thread; the caller resumes off it; the data is committed")
    func transactionStaysOnOneThread() async throws {
        let temporary = try TemporaryDirectory("sqlite-store")
        defer { temporary.remove() }
        let directory = temporary.url
        let store = try await SQLiteStore.open(path: directory.appendingPathComponent("store.sqlite").path, logger: Self.logger)
        let outcome: Result<([String], Int), any Error>
        do {
            let threads = try await store.transaction { database in
                var threads = [Self.threadName()]
                try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL)").run()
                threads.append(Self.threadName())
                for number in 1...5 {
                    try await database.raw("INSERT INTO items (id, label) VALUES (\(bind: number), \(bind: "item \(number)"))").run()
                    threads.append(Self.threadName())
                }
                return threads
            }
            let count = try await store.read { database in
                try await database.raw("SELECT COUNT(*) AS n FROM items").first()?.decode(column: "n", as: Int.self) ?? -1
            }
            outcome = .success((threads, count))
        } catch {
            outcome = .failure(error)
        }
        await store.close()
        let (threads, count) = try outcome.get()
        #expect(Set(threads).count == 1, "one thread for the whole transaction, saw \(threads)")
        #expect(threads.allSatisfy { $0.hasPrefix("TP-") }, "the connection's pool thread, saw \(threads)")
        #expect(!Self.threadName().hasPrefix("TP-"), "the caller is back off the store's thread")
        #expect(count == 5)
    }

    @Test(
        "a statement that fails rolls the transaction back and the store goes on answering; after close, a call fails instead of hanging",
        .timeLimit(.minutes(5)))  // a bound on a hang, not a speed: a loaded machine took over a minute once
    func failureAndClose() async throws {
        let temporary = try TemporaryDirectory("sqlite-store")
        defer { temporary.remove() }
        let directory = temporary.url
        let store = try await SQLiteStore.open(path: directory.appendingPathComponent("store.sqlite").path, logger: Self.logger)
        let outcome: Result<Int, any Error>
        do {
            try await store.transaction { database in try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY)").run() }
            await #expect(throws: (any Error).self) {
                try await store.transaction { database in
                    try await database.raw("INSERT INTO items (id) VALUES (1)").run()
                    try await database.raw("INSERT INTO items (id) VALUES (1)").run()  // primary key violation
                }
            }
            outcome = .success(
                try await store.read { database in
                    try await database.raw("SELECT COUNT(*) AS n FROM items").first()?.decode(column: "n", as: Int.self) ?? -1
                })
        } catch {
            outcome = .failure(error)
        }
        await store.close()
        #expect(try outcome.get() == 0, "the first insert was rolled back")
        await #expect(throws: SQLiteStoreClosed.self) {
            try await store.read { database in try await database.raw("SELECT 1").run() }
        }
        await #expect(throws: SQLiteStoreClosed.self) {
            try await store.transaction { database in try await database.raw("SELECT 1").run() }
        }
    }

    @Test(
        "the write-ahead log stays short without a checkpoint in any commit: 2,000 transactions leave a log of a few hundred KB, every row in the file"
    )
    func checkpointsBesideTheConnection() async throws {
        try await TemporaryDirectory.with("sqlite-store") { temporary in
            let path = temporary.file("store.sqlite").path
            let store = try await SQLiteStore.open(path: path, checkpointInterval: 50, logger: Self.logger)
            let walSize = try await withCleanup(
                {
                    try await store.transaction { database in
                        try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL)").run()
                    }
                    for number in 1...2000 {
                        try await store.transaction { database in
                            try await database.raw(
                                "INSERT INTO items (id, label) VALUES (\(bind: number), \(bind: String(repeating: "x", count: 200)))"
                            )
                            .run()
                        }
                    }
                    return try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? -1
                }, cleanup: { await store.close() })
            // Without checkpoints (autocheckpoint is off on the store's connection) the log would hold
            // every transaction's pages: megabytes here.
            #expect(walSize > 0 && walSize < 1_000_000, "the -wal file is \(walSize) bytes")
            let reopened = try await SQLiteStore.open(path: path, logger: Self.logger)
            let count = try await withCleanup(
                {
                    try await reopened.read { database in
                        try await database.raw("SELECT COUNT(*) AS n FROM items").first()?.decode(column: "n", as: Int.self) ?? -1
                    }
                }, cleanup: { await reopened.close() })
            #expect(count == 2000)
        }
    }

    @Test(
        "the connection's settings: write-ahead log, foreign keys enforced, deleted bytes overwritten, the busy timeout, no automatic checkpoint, no recursive triggers"
    )
    func connectionSettings() async throws {
        try await TemporaryDirectory.with("sqlite-store") { temporary in
            let store = try await SQLiteStore.open(path: temporary.file("store.sqlite").path, busyTimeout: .milliseconds(2500), logger: Self.logger)
            let settings = try await withCleanup(
                {
                    try await store.read { database in
                        var settings: [String: String] = [:]
                        for pragma in [
                            "journal_mode", "foreign_keys", "secure_delete", "busy_timeout", "wal_autocheckpoint", "synchronous",
                            "recursive_triggers",
                        ] {
                            let row = try await database.raw("PRAGMA \(unsafeRaw: pragma)").first()
                            settings[pragma] = try row.map { row in
                                let column = row.allColumns.first ?? ""
                                if let number = try? row.decode(column: column, as: Int.self) { return String(number) }
                                return try row.decode(column: column, as: String.self)
                            }
                        }
                        return settings
                    }
                }, cleanup: { await store.close() })
            #expect(
                settings == [
                    "journal_mode": "wal", "foreign_keys": "1", "secure_delete": "1", "busy_timeout": "2500", "wal_autocheckpoint": "0",
                    "synchronous": "1", "recursive_triggers": "0",
                ])
        }
    }
}

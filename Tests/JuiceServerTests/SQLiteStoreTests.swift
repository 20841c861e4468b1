import Foundation
import JuiceInfrastructure
import Logging
import SQLKit
import Testing

/// ``SQLiteStore`` runs each call on its connection's own thread (``ThreadPoolTaskExecutor``).
@Suite("The SQLite store: a call runs on the connection's thread, statements without thread hops")
struct SQLiteStoreTests {
    static var logger: Logger { DatabaseTests.logger }

    /// The name of the thread running the caller (NIO names its pool threads `TP-#n`), from Linux's
    /// `/proc/thread-self/comm`.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a transaction's body and every statement's continuation run on the store's thread; the caller resumes off it; the data is committed")
    func transactionStaysOnOneThread() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-sqlite-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
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
        .timeLimit(.minutes(1)))
    func failureAndClose() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-sqlite-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
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
}

import Foundation
import JuiceInfrastructure
import JuiceTestSupport
import Logging
import SQLKit
import Synchronization
import Testing

/// ``SQLiteStore/transaction(_:)`` commits transactions that arrive together as one group: one
/// `BEGIN IMMEDIATE … COMMIT`, each member in its own savepoint.
@Suite("The SQLite store's group commit: one commit for transactions that arrive together, each still all-or-nothing")
struct SQLiteGroupCommitTests {
    static var logger: Logger { LogCapture().logger(level: .warning) }

    /// A member's own failure.
    struct MemberFailure: Error, Equatable {}

    /// Counts what the store's commit hook reports.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// A transaction that holds the store's committer until ``open()``: the transactions started
    /// meanwhile queue up and form the next group.
    struct Gate: Sendable {
        let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation
        let opened: AsyncStream<Void>
        private let openedContinuation: AsyncStream<Void>.Continuation

        init() {
            (started, startedContinuation) = AsyncStream.makeStream()
            (opened, openedContinuation) = AsyncStream.makeStream()
        }

        /// The gate's transaction body: inserts `id` into `items`, then waits for ``open()``.
        func body(id: Int) -> @Sendable (any SQLDatabase) async throws -> Void {
            { database in
                try await database.raw("INSERT INTO items (id) VALUES (\(bind: id))").run()
                startedContinuation.yield()
                for await _ in opened { break }
            }
        }

        func open() { openedContinuation.yield() }
    }

    /// Waits until `count` transactions wait for the store's next group (a readiness condition).
    static func waitForQueue(_ store: SQLiteStore, count: Int) async throws {
        while store.waitingTransactions < count { try await Task.sleep(for: .milliseconds(1)) }
    }

    static func ids(in store: SQLiteStore, table: String = "items") async throws -> Set<Int> {
        try await store.read { database in
            Set(try await database.raw("SELECT id FROM \(unsafeRaw: table)").all().map { try $0.decode(column: "id", as: Int.self) })
        }
    }

    @Test(
        "six transactions queued behind a running one commit once together; the one that throws rolls back only itself and gets its error; each caller's row is visible to another connection when its result arrives",
        .timeLimit(.minutes(5)))  // a bound on a hang, not a speed
    func oneCommitForTheGroup() async throws {
        try await TemporaryDirectory.with("sqlite-group") { temporary in
            let path = temporary.file("store.sqlite").path
            let store = try await SQLiteStore.open(path: path, logger: Self.logger)
            let reader = try await SQLiteStore.open(path: path, logger: Self.logger)
            try await withCleanup(
                {
                    try await store.transaction { database in try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY)").run() }
                    let commits = Counter()
                    try await store.observeCommits { commits.increment() }
                    let gate = Gate()
                    let outcomes = try await withThrowingTaskGroup(of: (Int, Result<Bool, MemberFailure>).self) { group in
                        group.addTask {
                            try await store.transaction(gate.body(id: 100))
                            return (100, .success(true))
                        }
                        for await _ in gate.started { break }
                        for id in 1...6 {
                            group.addTask {
                                do {
                                    try await store.transaction { database in
                                        try await database.raw("INSERT INTO items (id) VALUES (\(bind: id))").run()
                                        if id == 3 { throw MemberFailure() }
                                    }
                                } catch let failure as MemberFailure {
                                    return (id, .failure(failure))
                                }
                                // Committed means visible to another connection, at once.
                                let visible = try await Self.ids(in: reader).contains(id)
                                return (id, .success(visible))
                            }
                        }
                        try await Self.waitForQueue(store, count: 6)
                        #expect(commits.count == 0, "nothing committed while the first transaction runs")
                        gate.open()
                        var outcomes: [Int: Result<Bool, MemberFailure>] = [:]
                        for try await (id, outcome) in group { outcomes[id] = outcome }
                        return outcomes
                    }
                    #expect(commits.count == 2, "the first transaction's commit, then one for the six queued behind it")
                    #expect(outcomes[3] == .failure(MemberFailure()), "the failing member gets its own error")
                    for id in [1, 2, 4, 5, 6, 100] {
                        #expect(outcomes[id] == .success(true), "member \(id) committed and its row was visible when its result arrived")
                    }
                    #expect(try await Self.ids(in: store) == [1, 2, 4, 5, 6, 100], "only the failing member's insert was rolled back")
                },
                cleanup: {
                    await reader.close()
                    await store.close()
                })
        }
    }

    @Test(
        "a COMMIT that fails (a deferred foreign key broken by one member) fails every member of the group, none of their rows stays, and the store goes on committing",
        .timeLimit(.minutes(5)))
    func failedCommitFailsEveryMember() async throws {
        try await TemporaryDirectory.with("sqlite-group") { temporary in
            let store = try await SQLiteStore.open(path: temporary.file("store.sqlite").path, logger: Self.logger)
            try await withCleanup(
                {
                    try await store.transaction { database in
                        try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY)").run()
                        try await database.raw(
                            "CREATE TABLE children (id INTEGER PRIMARY KEY, item INTEGER NOT NULL REFERENCES items(id) DEFERRABLE INITIALLY DEFERRED)"
                        ).run()
                    }
                    let gate = Gate()
                    let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                        group.addTask {
                            try await store.transaction(gate.body(id: 100))
                            return (100, true)
                        }
                        for await _ in gate.started { break }
                        for id in 1...4 {
                            group.addTask {
                                do {
                                    try await store.transaction { database in
                                        try await database.raw("INSERT INTO items (id) VALUES (\(bind: id))").run()
                                        if id == 2 {  // checked only at COMMIT: the member itself succeeds
                                            try await database.raw("INSERT INTO children (id, item) VALUES (1, 999)").run()
                                        }
                                    }
                                    return (id, true)
                                } catch {
                                    return (id, false)
                                }
                            }
                        }
                        try await Self.waitForQueue(store, count: 4)
                        gate.open()
                        var outcomes: [Int: Bool] = [:]
                        for try await (id, committed) in group { outcomes[id] = committed }
                        return outcomes
                    }
                    #expect(outcomes == [100: true, 1: false, 2: false, 3: false, 4: false], "every member of the failed group got the failure")
                    #expect(try await Self.ids(in: store) == [100])
                    #expect(try await Self.ids(in: store, table: "children").isEmpty)
                    try await store.transaction { database in try await database.raw("INSERT INTO items (id) VALUES (5)").run() }
                    #expect(try await Self.ids(in: store) == [5, 100], "the failed group's transaction was rolled back, the next one commits")
                }, cleanup: { await store.close() })
        }
    }

    @Test("a group holds at most maximumGroup members: ten queued transactions with a bound of four commit in three groups", .timeLimit(.minutes(5)))
    func groupIsBounded() async throws {
        try await TemporaryDirectory.with("sqlite-group") { temporary in
            let store = try await SQLiteStore.open(path: temporary.file("store.sqlite").path, maximumGroup: 4, logger: Self.logger)
            try await withCleanup(
                {
                    try await store.transaction { database in try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY)").run() }
                    let commits = Counter()
                    try await store.observeCommits { commits.increment() }
                    let gate = Gate()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { try await store.transaction(gate.body(id: 100)) }
                        for await _ in gate.started { break }
                        for id in 1...10 {
                            group.addTask {
                                try await store.transaction { database in try await database.raw("INSERT INTO items (id) VALUES (\(bind: id))").run()
                                }
                            }
                        }
                        try await Self.waitForQueue(store, count: 10)
                        gate.open()
                        try await group.waitForAll()
                    }
                    #expect(commits.count == 4, "the gate's commit, then groups of 4, 4 and 2")
                    #expect(try await Self.ids(in: store).count == 11)
                }, cleanup: { await store.close() })
        }
    }

    @Test("a statement is compiled once: a second round of a group (savepoints) and of lone transactions compiles nothing")
    func statementsAreCompiledOnce() async throws {
        try await TemporaryDirectory.with("sqlite-group") { temporary in
            let store = try await SQLiteStore.open(path: temporary.file("store.sqlite").path, logger: Self.logger)
            try await withCleanup(
                {
                    try await store.transaction { database in try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY)").run() }
                    @Sendable func insert(_ id: Int) async throws {
                        try await store.transaction { database in
                            try await database.raw("INSERT INTO items (id) VALUES (\(bind: id))").run()
                            _ = try await database.raw("SELECT id FROM items WHERE id = \(bind: id)").first()
                        }
                    }
                    /// A group of five behind a gate (each in a savepoint), then five alone.
                    @Sendable func round(from first: Int) async throws {
                        let gate = Gate()
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { try await store.transaction(gate.body(id: first)) }
                            for await _ in gate.started { break }
                            for id in first + 1...first + 5 { group.addTask { try await insert(id) } }
                            try await Self.waitForQueue(store, count: 5)
                            gate.open()
                            try await group.waitForAll()
                        }
                        for id in first + 6...first + 10 { try await insert(id) }
                    }
                    try await round(from: 0)
                    let warm = store.compiledStatements
                    try await round(from: 100)
                    try await round(from: 200)
                    #expect(
                        store.compiledStatements == warm, "\(warm) statements compiled in the first round, \(store.compiledStatements) after three")
                    #expect(try await Self.ids(in: store).count == 33)
                }, cleanup: { await store.close() })
        }
    }
}

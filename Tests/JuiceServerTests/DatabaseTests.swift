import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import JuiceServer

@Suite("The SQL databases: transactions, migrations from several instances, PostgreSQL connection errors")
struct DatabaseTests {
    static var logger: Logger {
        var logger = Logger(label: "juice-test-db")
        logger.logLevel = .warning
        return logger
    }

    @Test("PostgreSQL: instances starting together migrate once: every step applied exactly once, all succeed", TestDatabase.postgresOnly)
    func concurrentMigrations() async throws {
        try await StackEnvironment.with(.postgres) { environment in
            let databases = [
                try await openDatabase(environment.database, logger: Self.logger), try await openDatabase(environment.database, logger: Self.logger),
                try await openDatabase(environment.database, logger: Self.logger),
            ]
            let outcome: Result<([Int], [Int]), any Error>
            do {
                let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                    for database in databases {
                        group.addTask { try await SchemaMigrator().migrate(database, now: Date(), logger: Self.logger) }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                let recorded = try await databases[0].read { sql in
                    try await sql.select().column("version").from("juice_schema_migrations").all().map {
                        try $0.decode(column: "version", as: Int.self)
                    }
                }
                outcome = .success((applied, recorded))
            } catch {
                outcome = .failure(error)
            }
            for database in databases { await database.close() }
            let (applied, recorded) = try outcome.get()
            #expect(applied.sorted() == JuiceSchema.migrations.map(\.version), "each version applied by exactly one instance")
            #expect(recorded.sorted() == JuiceSchema.migrations.map(\.version))
        }
    }

    @Test("closing from a cancelled task (a service group torn down by cancellation) still closes the database", arguments: TestDatabase.all)
    func closeWhenCancelled(database kind: TestDatabase) async throws {
        try await StackEnvironment.with(kind) { environment in
            let database = try await openDatabase(environment.database, logger: Self.logger)
            let closing = Task {
                try? await Task.sleep(for: .seconds(60))  // cancelled at once: close() runs in a cancelled task
                await database.close()
            }
            closing.cancel()
            await closing.value
            await #expect(throws: (any Error).self, "the database is closed") {
                try await database.read { sql in try await sql.raw("SELECT 1").run() }
            }
        }
    }

    @Test("a transaction is all or nothing, and its writes are invisible to others until it commits", arguments: TestDatabase.all)
    func transactions(database kind: TestDatabase) async throws {
        try await StackEnvironment.with(kind) { environment in
            let database = try await openDatabase(environment.database, logger: Self.logger)
            try await SchemaMigrator().migrate(database, now: Date(), logger: Self.logger)
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await database.transaction { sql in
                    try await sql.insert(into: "spent_values").columns("value_key", "spent_at").values(SQLBind("rolled-back"), SQLBind(Int64(1)))
                        .run()
                    throw Abort()
                }
            }
            let count = try await database.read { sql in try await sql.select().column("value_key").from("spent_values").all().count }
            #expect(count == 0, "the insert was rolled back")
            if kind == .postgres {
                // Another connection does not see an uncommitted row.
                let (entered, enteredSink) = AsyncStream.makeStream(of: Void.self)
                let (proceed, proceedSink) = AsyncStream.makeStream(of: Void.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await database.transaction { sql in
                            try await sql.insert(into: "spent_values").columns("value_key", "spent_at").values(SQLBind("pending"), SQLBind(Int64(2)))
                                .run()
                            enteredSink.yield()
                            var iterator = proceed.makeAsyncIterator()
                            _ = await iterator.next()
                        }
                    }
                    var iterator = entered.makeAsyncIterator()
                    _ = await iterator.next()
                    let seen = try await database.read { sql in try await sql.select().column("value_key").from("spent_values").all().count }
                    #expect(seen == 0, "uncommitted work is invisible")
                    proceedSink.yield()
                    try await group.waitForAll()
                }
                let after = try await database.read { sql in try await sql.select().column("value_key").from("spent_values").all().count }
                #expect(after == 1)
            }
            await database.close()
        }
    }

    @Test(
        "PostgreSQL: a wrong password or an unknown database stops start-up with the reason, never the password",
        TestDatabase.postgresOnly
    )
    func connectionErrors() async throws {
        try TestPostgres.requireEnabled()
        var components = try #require(URLComponents(string: TestPostgres.adminURL))
        components.password = "not-the-password-51"
        let wrongPassword = try #require(components.string)
        let error = try await #require(throws: DatabaseLocationError.self) {
            try await openDatabase(.postgres(url: wrongPassword), logger: Self.logger)
        }
        #expect(error.reason.contains("password authentication failed"), "\(error.reason)")
        #expect(!error.reason.contains("not-the-password-51"))
        #expect(error.reason.contains("***"))

        let missing = try await #require(throws: DatabaseLocationError.self) {
            try await openDatabase(.postgres(url: TestPostgres.url(for: "juice_test_does_not_exist")), logger: Self.logger)
        }
        #expect(missing.reason.contains("does not exist"), "\(missing.reason)")

        let nobody = try await #require(throws: DatabaseLocationError.self) {
            try await openDatabase(
                .postgres(url: "postgres://juice:secret-52@127.0.0.1:\(try FreePort.pick())/juice?sslmode=disable"), logger: Self.logger)
        }
        #expect(nobody.reason.contains("cannot use PostgreSQL at postgres://juice:***@127.0.0.1"), "\(nobody.reason)")
        #expect(!nobody.reason.contains("secret-52"))
    }

    @Test("PostgreSQL: many more transactions than connections all complete, in a pool of two", TestDatabase.postgresOnly)
    func poolUnderLoad() async throws {
        try await StackEnvironment.with(.postgres) { environment in
            guard case .postgres(let url) = environment.database else { return }
            let database = try await PostgresJuiceDatabase.open(url: url, maximumConnections: 2, logger: Self.logger)
            try await SchemaMigrator().migrate(database, now: Date(), logger: Self.logger)
            let outcome: Result<Int, any Error>
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<40 {
                        group.addTask {
                            try await database.transaction { sql in
                                try await sql.insert(into: "spent_values").columns("value_key", "spent_at")
                                    .values(SQLBind("code-\(index)"), SQLBind(Int64(index))).run()
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                outcome = .success(try await database.read { sql in try await sql.select().column("value_key").from("spent_values").all().count })
            } catch {
                outcome = .failure(error)
            }
            await database.close()
            #expect(try outcome.get() == 40)
        }
    }

    @Test(
        "PostgreSQL: the same username signed up on several instances at once: one account, every other attempt `username_taken`",
        TestDatabase.postgresOnly)
    func concurrentSignUps() async throws {
        try await StackEnvironment.with(.postgres) { environment in
            let databases = [
                try await openDatabase(environment.database, logger: Self.logger), try await openDatabase(environment.database, logger: Self.logger),
            ]
            try await SchemaMigrator().migrate(databases[0], now: Date(), logger: Self.logger)
            let tokens = SessionTokens(lifetime: 3600, random: .system, time: .system)
            let outcomes = await withTaskGroup(of: Result<String, any Error>.self) { group in
                for attempt in 0..<12 {
                    let signUps = PasswordSignUpTransaction(database: databases[attempt % 2], random: .system)
                    group.addTask {
                        do {
                            let (account, _) = try await signUps.run(
                                username: "orange.fan", passwordHash: "$2b$04$notarealhash", session: tokens.issue(.password).draft)
                            return .success(account.id)
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for database in databases { await database.close() }
            let created = outcomes.compactMap { try? $0.get() }
            #expect(created.count == 1, "one account")
            for case .failure(let error) in outcomes {
                #expect(error as? AccountStoreError == .usernameTaken, "a refusal, not a database error: \(error)")
            }
        }
    }
}

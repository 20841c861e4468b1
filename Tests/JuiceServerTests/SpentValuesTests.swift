import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Spent values (codes, native nonces): each works once, in one statement, on both databases")
struct SpentValuesTests {
    static let logger = Logger(label: "spent-values-tests")

    @Test("a key is spent once; keys spent together are refused one by one; the purge removes only old ones", arguments: TestDatabase.all)
    func spending(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let store = AuthorizationStore(database: database)
            let now = Date(timeIntervalSince1970: 1_900_000_000)

            #expect(try await store.spend(["nonce:a", "code-a"], at: now) == ["nonce:a", "code-a"])
            #expect(try await store.spend(["nonce:a", "code-b"], at: now) == ["code-b"], "the spent nonce is refused, the new code is not")
            #expect(try await store.spend(["code-a"], at: now).isEmpty, "a code works once")
            #expect(try await store.spend([], at: now).isEmpty)
            #expect(try await store.spend(["old"], at: now.addingTimeInterval(-90_000)) == ["old"])

            #expect(try await store.purgeExpired(now: now, spentBefore: now.addingTimeInterval(-86_400)) == 1, "only the old key goes")
            #expect(try await store.spend(["old"], at: now) == ["old"], "a purged key can be spent again: the purge waits out every lifetime")
            #expect(try await store.spend(["nonce:a", "code-a", "code-b"], at: now).isEmpty, "the purge kept the recent ones")
        }
    }

    @Test("concurrent spends of one key: exactly one gets it", arguments: TestDatabase.all)
    func concurrentSpends(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let store = AuthorizationStore(database: database)
            let winners = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask { try await store.spend(["nonce:shared", "code-\(index)"], at: Date()).contains("nonce:shared") ? 1 : 0 }
                }
                return try await group.reduce(0, +)
            }
            #expect(winners == 1)
        }
    }

    @Test("PostgreSQL: after the server killed every pooled connection, single-statement writes still work", TestDatabase.postgresOnly)
    func killedConnections() async throws {
        try await StackEnvironment.withMigratedDatabase(.postgres) { (database: any JuiceDatabase) async throws in
            let store = AuthorizationStore(database: database)
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            for round in 0..<3 {
                #expect(try await store.spend(["before-\(round)"], at: now) == ["before-\(round)"])
                try? await database.read { sql in
                    try await sql.raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()").run()
                }
                #expect(try await store.spend(["after-\(round)", "before-\(round)"], at: now) == ["after-\(round)"])
            }
        }
    }

    @Test("migration 5 keeps the codes spent before it and drops the stored nonces", arguments: TestDatabase.all)
    func upgrade(database kind: TestDatabase) async throws {
        try await StackEnvironment.with(kind) { environment in
            let database = try await openDatabase(environment.database, logger: Self.logger)
            try await SchemaMigrator(migrations: Array(JuiceSchema.migrations.prefix(4))).migrate(database, now: Date(), logger: Self.logger)
            try await database.autocommit { sql in
                try await sql.raw("INSERT INTO used_codes (code_hash, used_at) VALUES ('spent-before', 1900000000)").run()
            }
            #expect(try await SchemaMigrator().migrate(database, now: Date(), logger: Self.logger).first == 5)
            let store = AuthorizationStore(database: database)
            #expect(try await store.spend(["spent-before", "new"], at: Date()) == ["new"], "a code spent before the upgrade stays spent")
            await #expect(throws: (any Error).self, "api_nonces is gone") {
                try await database.read { sql in try await sql.raw("SELECT nonce_hash FROM api_nonces").run() }
            }
            await database.close()
        }
    }
}

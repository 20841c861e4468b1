import Foundation
import Logging
import SQLKit
import Testing

@testable import JuiceServer

@Suite("Native sign-in nonces: single use, refused once expired, purged by the periodic pass")
struct NonceStoreTests {
    static let logger = Logger(label: "nonce-store-tests")

    @Test("a nonce is consumed once, an expired one never, and the purge removes only expired ones", arguments: TestDatabase.all)
    func lifecycle(database kind: TestDatabase) async throws {
        try await StackEnvironment.with(kind) { environment in
            let database = try await openDatabase(environment.database, logger: Self.logger)
            try await SchemaMigrator().migrate(database, now: Date(), logger: Self.logger)
            let store = SQLNonceStore(database: database)
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            try await store.save(hash: "live", createdAt: now, expiresAt: now.addingTimeInterval(600))
            try await store.save(hash: "kept", createdAt: now, expiresAt: now.addingTimeInterval(600))
            try await store.save(hash: "stale", createdAt: now.addingTimeInterval(-900), expiresAt: now.addingTimeInterval(-300))
            try await store.save(hash: "stale-2", createdAt: now.addingTimeInterval(-900), expiresAt: now.addingTimeInterval(-1))

            #expect(try await store.consume(hash: "live", now: now))
            #expect(try await !store.consume(hash: "live", now: now), "a nonce works once")
            #expect(try await !store.consume(hash: "stale", now: now), "an expired nonce is refused")
            #expect(try await !store.consume(hash: "never-issued", now: now))
            await #expect(throws: (any Error).self, "a nonce hash is stored once") {
                try await store.save(hash: "kept", createdAt: now, expiresAt: now.addingTimeInterval(600))
            }

            #expect(try await store.purgeExpired(now: now) == 1, "only stale-2 is left to purge (stale was consumed)")
            #expect(try await store.purgeExpired(now: now) == 0)
            #expect(try await store.consume(hash: "kept", now: now), "the purge keeps live nonces")
            await database.close()
        }
    }

    @Test("PostgreSQL: after the server killed every pooled connection, single-statement writes still work", TestDatabase.postgresOnly)
    func killedConnections() async throws {
        try await StackEnvironment.with(.postgres) { environment in
            let database = try await openDatabase(environment.database, logger: Self.logger)
            try await SchemaMigrator().migrate(database, now: Date(), logger: Self.logger)
            let store = SQLNonceStore(database: database)
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            for round in 0..<3 {
                try await store.save(hash: "before-\(round)", createdAt: now, expiresAt: now.addingTimeInterval(600))
                try? await database.read { sql in
                    try await sql.raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()").run()
                }
                try await store.save(hash: "after-\(round)", createdAt: now, expiresAt: now.addingTimeInterval(600))
                #expect(try await store.consume(hash: "before-\(round)", now: now))
                #expect(try await store.consume(hash: "after-\(round)", now: now))
            }
            await database.close()
        }
    }
}

import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import JuiceServer

@Suite("PostgreSQL outage: the pool answers at once while the database is gone, and works again when it is back")
struct PostgresOutageTests {
    static var logger: Logger { DatabaseTests.logger }

    @Test(
        "a database that ends every connection and refuses new ones: calls fail at once with an error, and succeed again as soon as it accepts connections",
        TestDatabase.postgresOnly)
    func outage() async throws {
        try await StackEnvironment.with(.postgres) { environment in
            let name = try #require(environment.postgresName)
            let database = try await openDatabase(environment.database, logger: Self.logger)
            try await withCleanup(
                {
                    try await database.read { sql in try await sql.raw("SELECT 1").run() }
                    try await TestPostgres.withAdmin { sql in
                        try await sql.raw("ALTER DATABASE \(unsafeRaw: name) ALLOW_CONNECTIONS false").run()
                        try await sql.raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(bind: name)").run()
                    }
                    let postgres = try #require(database as? PostgresJuiceDatabase)
                    let attemptsBefore = postgres.connectionAttempts
                    for _ in 0..<3 {
                        await #expect(throws: (any Error).self) { try await database.read { sql in try await sql.raw("SELECT 1").run() } }
                    }
                    // Each refused call opens at most two connections (the pooled one found dead, then
                    // one fresh try), never a connection-retry loop: postgres-nio's PostgresClient kept
                    // retrying and made the first call wait 67 s (docs/performance.md).
                    #expect(postgres.connectionAttempts - attemptsBefore <= 6)
                    try await TestPostgres.withAdmin { sql in try await sql.raw("ALTER DATABASE \(unsafeRaw: name) ALLOW_CONNECTIONS true").run() }
                    try await database.read { sql in try await sql.raw("SELECT 1").run() }
                }, cleanup: { await database.close() })
        }
    }
}

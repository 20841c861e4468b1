import Foundation
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import JuiceServer

/// The databases every server test runs on.
package enum TestDatabase: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The argument list of every parameterized server test: both, in this order, when PostgreSQL is
    /// configured (or required); otherwise SQLite only, after one notice saying why.
    package static let all: [TestDatabase] = {
        if TestPostgres.configuredURL != nil && !TestPostgres.isOff || TestRequirements.requireAll { return allCases }
        TestRequirements.notice(
            "the PostgreSQL variants of the server tests are skipped: "
                + (TestPostgres.isOff ? "JUICE_TEST_POSTGRES=off" : "JUICE_TEST_POSTGRES_URL is not set")
                + ". scripts/test starts a throwaway PostgreSQL and runs them all."
        )
        return [.sqlite]
    }()

    package var testDescription: String { rawValue }

    /// The trait of a test that runs on PostgreSQL only: enabled exactly when ``all`` has PostgreSQL.
    package static var postgresOnly: ConditionTrait {
        .enabled(if: all.contains(.postgres), "needs PostgreSQL (JUICE_TEST_POSTGRES_URL; scripts/test starts one)")
    }
}

/// The PostgreSQL server the tests use, from the environment:
///
/// - `JUICE_TEST_POSTGRES_URL`: a role allowed to create databases (`scripts/test` starts a
///   throwaway cluster and sets it). Without it, or with `JUICE_TEST_POSTGRES=off`, the PostgreSQL
///   variants are not run (see ``TestDatabase/all``), unless `JUICE_TEST_REQUIRE_ALL=1`: then they
///   fail saying what is missing. An unreachable server fails them with a message saying so.
///
/// Each test gets a database of its own (`juice_test_<random>`), dropped when it ends.
package enum TestPostgres {
    package static var configuredURL: String? { ProcessInfo.processInfo.environment["JUICE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 } }

    package static var adminURL: String { configuredURL ?? "" }

    package static var isOff: Bool { ProcessInfo.processInfo.environment["JUICE_TEST_POSTGRES"]?.lowercased() == "off" }

    /// Fails the running test when a PostgreSQL variant runs without a server to run on (only when
    /// `JUICE_TEST_REQUIRE_ALL=1` demands them).
    package static func requireEnabled() throws {
        if isOff { throw TestPostgresUnavailable(reason: "JUICE_TEST_POSTGRES=off, but JUICE_TEST_REQUIRE_ALL=1 requires the PostgreSQL variants") }
        if configuredURL == nil {
            throw TestPostgresUnavailable(reason: "JUICE_TEST_POSTGRES_URL is not set, and JUICE_TEST_REQUIRE_ALL=1 requires it")
        }
    }

    /// Creates an empty database; returns its name and URL.
    package static func createDatabase() async throws -> (name: String, url: String) {
        try requireEnabled()
        let name = "juice_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await withAdmin { sql in try await sql.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        return (name, url(for: name))
    }

    /// Drops a database made by ``createDatabase()``, ending its connections.
    package static func dropDatabase(_ name: String) async throws {
        try await withAdmin { sql in try await sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
    }

    /// `adminURL` with its database replaced by `name`.
    package static func url(for name: String) -> String {
        var components = URLComponents(string: adminURL)!
        components.path = "/" + name
        return components.string!
    }

    /// Runs `body` on the admin database (the one `JUICE_TEST_POSTGRES_URL` names).
    package static func withAdmin(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        var logger = Logger(label: "juice-test-postgres")
        logger.logLevel = .warning
        let admin: PostgresJuiceDatabase
        do {
            admin = try await PostgresJuiceDatabase.open(url: adminURL, maximumConnections: 2, logger: logger)
        } catch {
            throw TestPostgresUnavailable(reason: "\(error)")
        }
        do {
            try await admin.read(body)
            await admin.close()
        } catch {
            await admin.close()
            throw error
        }
    }
}

/// No PostgreSQL to test against.
package struct TestPostgresUnavailable: Error, CustomStringConvertible {
    package let reason: String

    package var description: String {
        "PostgreSQL tests need a server: \(reason). Run scripts/test (it starts a throwaway PostgreSQL), or point "
            + "JUICE_TEST_POSTGRES_URL at a role that may create databases."
    }
}

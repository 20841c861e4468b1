import Foundation
import Logging
import SQLKit
import Testing

@testable import JuiceServer

/// The databases every server test runs on.
enum TestDatabase: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// Both, in this order: the argument list of every parameterized server test.
    static let all: [TestDatabase] = allCases

    var testDescription: String { rawValue }
}

/// The PostgreSQL server the tests use, from the environment:
///
/// - `JUICE_TEST_POSTGRES_URL`: a role allowed to create databases
///   (default `postgres://juice:juice@127.0.0.1:5432/juice?sslmode=disable`, what `.ci/run` sets up);
/// - `JUICE_TEST_POSTGRES=off`: skip the PostgreSQL variants (each one records a warning with this
///   reason and is cancelled). Without it, an unreachable server fails those tests with a message saying so.
///
/// Each test gets a database of its own (`juice_test_<random>`), dropped when it ends.
enum TestPostgres {
    static let defaultURL = "postgres://juice:juice@127.0.0.1:5432/juice?sslmode=disable"

    static var adminURL: String { ProcessInfo.processInfo.environment["JUICE_TEST_POSTGRES_URL"] ?? defaultURL }

    static var isOff: Bool { ProcessInfo.processInfo.environment["JUICE_TEST_POSTGRES"]?.lowercased() == "off" }

    /// Ends the running test (or test case) when PostgreSQL tests are switched off: a warning names
    /// the reason (a cancelled test case alone would be reported as passed), then the test is cancelled.
    static func requireEnabled() throws {
        guard isOff else { return }
        Issue.record("PostgreSQL variant skipped: JUICE_TEST_POSTGRES=off", severity: .warning)
        try Test.cancel("PostgreSQL variant skipped: JUICE_TEST_POSTGRES=off")
    }

    /// Creates an empty database; returns its name and URL.
    static func createDatabase() async throws -> (name: String, url: String) {
        try requireEnabled()
        let name = "juice_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await withAdmin { sql in try await sql.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        return (name, url(for: name))
    }

    /// Drops a database made by ``createDatabase()``, ending its connections.
    static func dropDatabase(_ name: String) async throws {
        try await withAdmin { sql in try await sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
    }

    /// `adminURL` with its database replaced by `name`.
    static func url(for name: String) -> String {
        var components = URLComponents(string: adminURL)!
        components.path = "/" + name
        return components.string!
    }

    private static func withAdmin(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
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
struct TestPostgresUnavailable: Error, CustomStringConvertible {
    let reason: String

    var description: String {
        "PostgreSQL tests need a server: \(reason). Start one (bash .ci/run shows how), point JUICE_TEST_POSTGRES_URL at a role "
            + "that may create databases, or set JUICE_TEST_POSTGRES=off to skip the PostgreSQL variants."
    }
}

import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import JuiceServer

/// Schema migration 7 on a database that migration 6 left with accounts in it: usernames move to
/// `accounts` (unique where present), passwords keep their hashes (NOT NULL), and an account may then
/// have a username without a password.
@Suite("Migration 7: one unique home for usernames, on SQLite and PostgreSQL")
struct UsernameMigrationTests {
    static var logger: Logger {
        var logger = Logger(label: "juice-test-migration")
        logger.logLevel = .warning
        return logger
    }

    @Test(
        "usernames move from password_credentials to accounts; hashes stay; the name is unique and a password optional",
        arguments: TestDatabase.all)
    func usernamesMove(database kind: TestDatabase) async throws {
        try await StackEnvironment.with(kind) { environment in
            let database = try await openDatabase(environment.database, logger: Self.logger)
            try await withCleanup({ try await Self.migrateAndCheck(database) }, cleanup: { await database.close() })
        }
    }

    static func migrateAndCheck(_ database: any JuiceDatabase) async throws {
        let before = JuiceSchema.migrations.filter { $0.version <= 6 }
        try await SchemaMigrator(migrations: before).migrate(database, now: Date(), logger: Self.logger)
        try await database.transaction { sql in
            for id in ["with-password", "apple-only"] {
                try await sql.raw("INSERT INTO accounts (id, created_at, is_private_email) VALUES (\(bind: id), 1900000000, 0)").run()
            }
            try await sql.raw(
                "INSERT INTO password_credentials (account_id, username, password_hash, created_at) VALUES ('with-password', 'zoe', 'hash-1', 1900000001)"
            ).run()
        }

        let upTo7 = JuiceSchema.migrations.filter { $0.version <= 7 }
        #expect(try await SchemaMigrator(migrations: upTo7).migrate(database, now: Date(), logger: Self.logger) == [7])

        let rows = try await database.read { sql in
            try await sql.raw("SELECT id, username FROM accounts ORDER BY id").all().map {
                [try $0.decode(column: "id", as: String.self), try $0.decode(column: "username", as: String?.self) ?? "-"]
            }
        }
        #expect(rows == [["apple-only", "-"], ["with-password", "zoe"]])
        let repository = AccountStore(database: database)
        let credential = try await repository.passwordCredential(username: "zoe")
        #expect(credential == StoredPasswordCredential(accountID: "with-password", username: "zoe", passwordHash: "hash-1"))
        #expect(try await repository.account(id: "with-password")?.username == "zoe")
        #expect(try await repository.isUsernameTaken("zoe"))

        // A username without a password, once per name; a password row without a hash is refused.
        try await database.autocommit { sql in
            try await sql.raw("INSERT INTO accounts (id, created_at, is_private_email, username) VALUES ('passkey-first', 1900000002, 0, 'ann')")
                .run()
        }
        await #expect(throws: (any Error).self, "a second account named zoe") {
            try await database.autocommit { sql in
                try await sql.raw("INSERT INTO accounts (id, created_at, is_private_email, username) VALUES ('copy', 1900000003, 0, 'zoe')").run()
            }
        }
        await #expect(throws: (any Error).self, "password_hash is NOT NULL") {
            try await database.autocommit { sql in
                try await sql.raw("INSERT INTO password_credentials (account_id, password_hash, created_at) VALUES ('passkey-first', NULL, 1)").run()
            }
        }
        #expect(try await repository.account(id: "passkey-first")?.username == "ann")
        #expect(try await repository.passwordCredential(username: "ann") == nil, "a username without a password signs in with no password")
    }
}

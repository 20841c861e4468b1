import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import JuiceServer

@Suite("A returning Apple ID's sign-in: one statement on PostgreSQL, the same outcome as the general transaction")
struct ReturningSignInTests {
    static let logger = Logger(label: "returning-sign-in-tests")

    static let start = Date(timeIntervalSince1970: 1_900_000_000)

    /// A repository over `database`, its session tokens, and the first sign-in of `subject` (a new account).
    static func firstSignIn(
        _ subject: String, on database: any JuiceDatabase
    ) async throws -> (
        AccountStore, SessionTokens, AppleSignInResult
    ) {
        let repository = AccountStore(database: database)
        let tokens = SessionTokens(lifetime: 3600, random: .seeded(4), time: .system)
        let first = try await AppleSignInTransaction(database: database, random: .seeded(3), mail: nil).run(
            record(subject, email: "old@example.com", sealed: "sealed-1", at: start), linkTo: nil, replacingSession: nil,
            session: tokens.issue(.apple).1)
        return (repository, tokens, first)
    }

    static func record(_ subject: String, email: String?, sealed: String?, at: Date) -> AppleSignInRecord {
        AppleSignInRecord(
            subject: subject, clientID: "com.example.app", email: email, isPrivateEmail: email == nil ? nil : false, realUserStatus: .likelyReal,
            givenName: nil, familyName: nil, sealedRefreshToken: sealed, at: at)
    }

    @Test(
        "the statement refreshes the Apple ID, starts the session and reads the account back; an unknown sub writes nothing",
        TestDatabase.postgresOnly)
    func oneStatement() async throws {
        try await StackEnvironment.withMigratedDatabase(.postgres) { (database: any JuiceDatabase) async throws in
            let (_, tokens, first) = try await Self.firstSignIn("sub-1", on: database)
            #expect(first.createdAccount)
            let start = Self.start

            let later = Self.record("sub-1", email: "new@example.com", sealed: nil, at: start.addingTimeInterval(60))
            let draft = tokens.issue(.apple).1
            let account = try #require(
                try await database.autocommit { sql in try await AppleSignInTransaction.returningSignIn(later, session: draft, on: sql) })
            #expect(account.id == first.account.id)
            #expect(account.apple?.email == "new@example.com", "the identity's columns are the updated ones")
            #expect(account.apple?.hasRefreshToken == true, "an absent refresh token keeps the stored one")
            let sessionOwner = try await database.read { sql in
                try await sql.raw("SELECT account_id FROM sessions WHERE id = \(bind: draft.id)").first()?.decode(
                    column: "account_id", as: String.self)
            }
            #expect(sessionOwner == first.account.id)

            let unknown = tokens.issue(.apple).1
            let none = try await database.autocommit { sql in
                try await AppleSignInTransaction.returningSignIn(
                    Self.record("sub-unknown", email: nil, sealed: nil, at: start), session: unknown, on: sql)
            }
            #expect(none == nil)
            let stray = try await database.read { sql in try await sql.raw("SELECT id FROM sessions WHERE id = \(bind: unknown.id)").all().count }
            #expect(stray == 0, "no session without an Apple ID")
        }
    }

    @Test(
        "a returning sign-in gives the same account and session on both databases, the email updated on the account too", arguments: TestDatabase.all)
    func sameOutcome(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let (repository, tokens, first) = try await Self.firstSignIn("sub-2", on: database)
            let start = Self.start
            let second = try await AppleSignInTransaction(database: database, random: .seeded(3), mail: nil).run(
                Self.record("sub-2", email: "new@example.com", sealed: "sealed-2", at: start.addingTimeInterval(60)), linkTo: nil,
                replacingSession: nil, session: tokens.issue(.apple).1)
            #expect(!second.createdAccount && !second.linked)
            #expect(second.account.id == first.account.id)
            #expect(second.account.email == "new@example.com")
            #expect(second.account.apple?.email == "new@example.com")
            let stored = try #require(try await repository.account(id: first.account.id))
            #expect(stored.email == "new@example.com", "the profile change was written, not only returned")
            let sessions = try await database.read { sql in
                try await sql.raw("SELECT id FROM sessions WHERE account_id = \(bind: first.account.id)").all().count
            }
            #expect(sessions == 2)
        }
    }
}

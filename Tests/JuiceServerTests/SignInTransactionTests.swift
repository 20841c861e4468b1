import AppleSignIn
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Logging
import SQLKit
import Testing
import WebAuthn

@testable import JuiceServer

@Suite("One transaction per sign-in: all of a sign-in's writes or none of them, on both databases")
struct SignInTransactionTests {
    static let start = Date(timeIntervalSince1970: 1_900_000_000)
    static let logger = Logger(label: "sign-in-transaction-tests")

    static func count(_ query: SQLQueryString, on database: any JuiceDatabase) async throws -> Int64 {
        try await database.read { sql in try await sql.raw(query).first()?.decode(column: "n", as: Int64.self) ?? -1 }
    }

    static func spentCount(_ key: String, on database: any JuiceDatabase) async throws -> Int64 {
        try await count("SELECT COUNT(*) AS n FROM spent_values WHERE value_key = \(bind: key)", on: database)
    }

    static func sessionCount(_ accountID: String, on database: any JuiceDatabase) async throws -> Int64 {
        try await count("SELECT COUNT(*) AS n FROM sessions WHERE account_id = \(bind: accountID)", on: database)
    }

    /// An account with one passkey whose stored counter is 5.
    static func passkeyAccount(on database: any JuiceDatabase) async throws -> (PasskeyStore, PasskeyCredential) {
        try await PasskeyStoreTests.addAccount("account-p", to: database)
        let store = PasskeyStore(database: database)
        let credential = PasskeyStoreTests.credential(1, account: "account-p", signCount: 5)
        try await store.add(credential)
        return (store, credential)
    }

    static func passkeyRecord(
        _ credential: PasskeyCredential, previous: UInt32 = 5, next: UInt32 = 6, challenge: String = "passkey:c1", session: SessionDraft
    ) -> PasskeySignInRecord {
        PasskeySignInRecord(
            credentialID: credential.credentialID, accountID: credential.accountID, previousSignCount: previous, signCount: next, backedUp: true,
            challengeSpentValueID: challenge, session: session, at: start)
    }

    static func tokens(_ seed: UInt64) -> SessionTokens {
        SessionTokens(lifetime: 3600, random: .seeded(seed), time: .system)
    }

    @Test("a passkey sign-in spends its challenge, records the counter and starts the session together", arguments: TestDatabase.all)
    func passkeyCommits(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let (store, credential) = try await Self.passkeyAccount(on: database)
            let draft = Self.tokens(1).issue(.passkey).draft
            let account = try await PasskeySignInTransaction(database: store.database).run(Self.passkeyRecord(credential, session: draft))
            #expect(account.id == "account-p")
            #expect(try await Self.spentCount("passkey:c1", on: database) == 1)
            #expect(try await store.credential(id: credential.credentialID)?.signCount == 6)
            #expect(try await Self.sessionCount("account-p", on: database) == 1)
        }
    }

    @Test("a passkey sign-in whose counter moved meanwhile leaves nothing: the challenge unspent, no session", arguments: TestDatabase.all)
    func passkeyCounterRaceRollsBack(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let (store, credential) = try await Self.passkeyAccount(on: database)
            let draft = Self.tokens(2).issue(.passkey).draft
            await #expect(throws: PasskeyError(.counterRegressed, "")) {
                try await PasskeySignInTransaction(database: store.database).run(Self.passkeyRecord(credential, previous: 4, next: 6, session: draft))
            }
            #expect(try await Self.spentCount("passkey:c1", on: database) == 0, "the spend was rolled back with the counter's refusal")
            #expect(try await Self.sessionCount("account-p", on: database) == 0)
            #expect(try await store.credential(id: credential.credentialID)?.signCount == 5)
        }
    }

    @Test("a passkey sign-in whose session cannot be written leaves no counter update and no spent challenge", arguments: TestDatabase.all)
    func passkeySessionFailureRollsBack(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let (store, credential) = try await Self.passkeyAccount(on: database)
            let draft = Self.tokens(3).issue(.passkey).draft
            // The same session id already taken: the session insert, the transaction's last write, fails.
            _ = try await AccountStore(database: database).startSession(draft, accountID: "account-p")
            await #expect(throws: (any Error).self) {
                try await PasskeySignInTransaction(database: store.database).run(Self.passkeyRecord(credential, session: draft))
            }
            #expect(try await Self.spentCount("passkey:c1", on: database) == 0, "no spent challenge without its session")
            let stored = try #require(try await store.credential(id: credential.credentialID))
            #expect(stored.signCount == 5 && stored.lastUsedAt == nil, "no counter update without its session")
            #expect(try await Self.sessionCount("account-p", on: database) == 1, "only the session written before")
        }
    }

    @Test("a spent passkey challenge is refused and writes nothing else", arguments: TestDatabase.all)
    func passkeySpentChallenge(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let (store, credential) = try await Self.passkeyAccount(on: database)
            #expect(try await AuthorizationStore(database: database).spend(["passkey:c1"], at: Self.start) == ["passkey:c1"])
            await #expect(throws: PasskeyError(.challengeUnknown, "")) {
                try await PasskeySignInTransaction(database: store.database).run(
                    Self.passkeyRecord(credential, session: Self.tokens(4).issue(.passkey).draft))
            }
            #expect(try await store.credential(id: credential.credentialID)?.signCount == 5)
            #expect(try await Self.sessionCount("account-p", on: database) == 0)
        }
    }

    @Test(
        "two instances on one database finish one challenge at once, with a passkey that keeps no counter: exactly one signs in",
        arguments: TestDatabase.all)
    func passkeyAcrossInstances(database kind: TestDatabase) async throws {
        try await StackEnvironment.with(kind) { environment in
            let first = try await openDatabase(environment.database, logger: Self.logger)
            let second = try await openDatabase(environment.database, logger: Self.logger)
            try await withCleanup(
                {
                    try await SchemaMigrator().migrate(first, now: Date(), logger: Self.logger)
                    try await PasskeyStoreTests.addAccount("account-p", to: first)
                    let credential = PasskeyStoreTests.credential(1, account: "account-p", signCount: 0)
                    try await PasskeyStore(database: first).add(credential)
                    let tokens = Self.tokens(5)
                    let winners = try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<8 {
                            let store = PasskeyStore(database: index % 2 == 0 ? first : second)
                            let draft = tokens.issue(.passkey).draft
                            group.addTask {
                                do {
                                    _ = try await PasskeySignInTransaction(database: store.database).run(
                                        Self.passkeyRecord(credential, previous: 0, next: 0, session: draft))
                                    return 1
                                } catch let error as PasskeyError where error.code == .challengeUnknown {
                                    return 0
                                }
                            }
                        }
                        return try await group.reduce(0, +)
                    }
                    #expect(winners == 1)
                    #expect(try await Self.sessionCount("account-p", on: first) == 1)
                },
                cleanup: {
                    await first.close()
                    await second.close()
                })
        }
    }

    @Test(
        "an Apple sign-in's account transaction is all or nothing: a session that cannot be written leaves the Apple ID and its refresh token as they were",
        arguments: TestDatabase.all)
    func appleRollsBack(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let (repository, tokens, first) = try await ReturningSignInTests.firstSignIn("sub-t", on: database)
            let later = ReturningSignInTests.record("sub-t", email: "new@example.com", sealed: "sealed-2", at: Self.start.addingTimeInterval(60))
            let taken = tokens.issue(.apple).draft
            _ = try await repository.startSession(taken, accountID: first.account.id)
            await #expect(throws: (any Error).self, "the session id is taken: the last write fails") {
                try await AppleSignInTransaction(database: database, random: .seeded(3), mail: nil).run(
                    later, linkTo: nil, replacingSession: nil, session: taken)
            }
            let unchanged = try #require(try await repository.account(id: first.account.id))
            #expect(unchanged.email == "old@example.com" && unchanged.apple?.email == "old@example.com", "the Apple ID's update was rolled back")
            let sealed = try await database.read { sql in
                try await sql.raw("SELECT refresh_token FROM apple_identities WHERE subject = 'sub-t'").first()?.decode(
                    column: "refresh_token", as: String?.self)
            }
            #expect(sealed == "sealed-1", "no new refresh token without its session")
            let signedIn = try await AppleSignInTransaction(database: database, random: .seeded(3), mail: nil).run(
                later, linkTo: nil, replacingSession: nil, session: tokens.issue(.apple).draft)
            #expect(signedIn.account.email == "new@example.com")
            #expect(try await Self.sessionCount(first.account.id, on: database) == 3)
        }
    }
}

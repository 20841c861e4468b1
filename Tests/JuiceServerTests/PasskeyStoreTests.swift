import Foundation
import JuiceStackSupport
import JuiceTestSupport
import SQLKit
import Testing
import WebAuthn

@testable import JuiceServer

@Suite("Passkey storage: single-use expiring challenges and credentials, on both databases")
struct PasskeyStoreTests {
    static let start = Date(timeIntervalSince1970: 1_900_000_000)

    static func addAccount(_ id: String, to database: any JuiceDatabase) async throws {
        try await database.autocommit { sql in
            try await sql.raw("INSERT INTO accounts (id, created_at) VALUES (\(bind: id), 1900000000)").run()
        }
    }

    static func challenge(
        _ byte: UInt8, _ purpose: PasskeyChallenge.Purpose, account: String? = nil, lifetime: TimeInterval = 300
    ) -> PasskeyChallenge {
        PasskeyChallenge(
            challenge: [UInt8](repeating: byte, count: 32), purpose: purpose, accountID: account, createdAt: start,
            expiresAt: start.addingTimeInterval(lifetime))
    }

    static func credential(_ byte: UInt8, account: String, signCount: UInt32 = 0) -> PasskeyCredential {
        PasskeyCredential(
            credentialID: [byte, 1, 2, 3], accountID: account, userHandle: [9, 9], publicKey: [0xA0], algorithm: .es256,
            signCount: signCount, transports: ["internal", "hybrid"], backupEligible: true, backedUp: false, name: "Passkey \(byte)",
            createdAt: start.addingTimeInterval(TimeInterval(byte)), lastUsedAt: nil)
    }

    @Test("a challenge works once, for its own ceremony, until it expires; the purge takes only expired ones", arguments: TestDatabase.all)
    func challenges(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            try await Self.addAccount("account-1", to: database)
            let store = PasskeyStore(database: database)
            let clock = TestClock(Self.start)
            try await store.saveChallenge(Self.challenge(1, .registration, account: "account-1"))
            try await store.saveChallenge(Self.challenge(2, .authentication))
            try await store.saveChallenge(Self.challenge(3, .authentication, lifetime: 60))
            try await store.saveChallenge(Self.challenge(4, .authentication, lifetime: 30))

            await #expect(throws: PasskeyError(.challengeUnknown, ""), "a registration challenge is not an authentication one") {
                try await store.consumeChallenge([UInt8](repeating: 1, count: 32), purpose: .authentication, now: clock.now)
            }
            let registration = try await store.consumeChallenge([UInt8](repeating: 1, count: 32), purpose: .registration, now: clock.now)
            #expect(registration == Self.challenge(1, .registration, account: "account-1"))
            await #expect(throws: PasskeyError(.challengeUnknown, ""), "used once, gone") {
                try await store.consumeChallenge([UInt8](repeating: 1, count: 32), purpose: .registration, now: clock.now)
            }
            await #expect(throws: PasskeyError(.challengeUnknown, ""), "never issued") {
                try await store.consumeChallenge([UInt8](repeating: 7, count: 32), purpose: .authentication, now: clock.now)
            }

            clock.advance(by: 60)
            await #expect(throws: PasskeyError(.challengeExpired, ""), "at its expiry a challenge is refused") {
                try await store.consumeChallenge([UInt8](repeating: 3, count: 32), purpose: .authentication, now: clock.now)
            }
            await #expect(throws: PasskeyError(.challengeUnknown, ""), "and an expired one was taken out all the same") {
                try await store.consumeChallenge([UInt8](repeating: 3, count: 32), purpose: .authentication, now: clock.now)
            }
            #expect(try await store.purgeExpiredChallenges(now: clock.now) == 1, "only challenge 4 had expired and was left")
            let fresh = try await store.consumeChallenge([UInt8](repeating: 2, count: 32), purpose: .authentication, now: clock.now)
            #expect(fresh.accountID == nil)
        }
    }

    @Test("concurrent finishes with one challenge: exactly one gets it", arguments: TestDatabase.all)
    func concurrentConsumes(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            let store = PasskeyStore(database: database)
            try await store.saveChallenge(Self.challenge(5, .authentication))
            let winners = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await store.consumeChallenge([UInt8](repeating: 5, count: 32), purpose: .authentication, now: Self.start)
                            return 1
                        } catch let error as PasskeyError where error.code == .challengeUnknown {
                            return 0
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(winners == 1)
        }
    }

    @Test(
        "credentials: one id once; counter updated only from the value read; rename and remove only the owner's; the last sign-in method stays; gone with the account",
        arguments: TestDatabase.all)
    func credentials(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            try await Self.addAccount("account-a", to: database)
            try await Self.addAccount("account-b", to: database)
            let store = PasskeyStore(database: database)
            let first = Self.credential(1, account: "account-a", signCount: 5)
            try await store.add(first)
            try await store.add(Self.credential(2, account: "account-a"))
            await #expect(throws: PasskeyError(.credentialExists, ""), "the same credential id for another account is refused") {
                try await store.add(Self.credential(1, account: "account-b"))
            }
            #expect(try await store.credential(id: first.credentialID) == first)
            #expect(try await store.credential(id: [0xFF]) == nil)
            #expect(try await store.credentials(accountID: "account-a").map(\.name) == ["Passkey 1", "Passkey 2"])
            #expect(try await store.credentials(accountID: "account-b").isEmpty)

            let used = Self.start.addingTimeInterval(100)
            #expect(try await store.recordUse(credentialID: first.credentialID, previousSignCount: 5, signCount: 6, backedUp: true, at: used))
            #expect(
                !(try await store.recordUse(credentialID: first.credentialID, previousSignCount: 5, signCount: 6, backedUp: true, at: used)),
                "a second assertion that read counter 5 loses the race")
            let updated = try #require(try await store.credential(id: first.credentialID))
            #expect(updated.signCount == 6 && updated.backedUp && updated.lastUsedAt == used)

            #expect(!(try await store.rename(credentialID: first.credentialID, accountID: "account-b", to: "Stolen")))
            #expect(try await store.rename(credentialID: first.credentialID, accountID: "account-a", to: "MacBook"))
            #expect(try await store.credential(id: first.credentialID)?.name == "MacBook")
            #expect(try await store.remove(credentialID: first.credentialID, accountID: "account-b") == .notFound)
            #expect(try await store.remove(credentialID: first.credentialID, accountID: "account-a") == .removed)
            #expect(try await store.credential(id: first.credentialID) == nil)
            #expect(
                try await store.remove(credentialID: [2, 1, 2, 3], accountID: "account-a") == .lastSignInMethod,
                "an account without a password or Apple ID keeps its last passkey")
            try await database.autocommit { sql in
                try await sql.raw(
                    "INSERT INTO password_credentials (account_id, password_hash, created_at) VALUES ('account-a', 'x', 1900000000)"
                ).run()
            }
            #expect(try await store.remove(credentialID: [2, 1, 2, 3], accountID: "account-a") == .removed, "with a password it may go")
            try await store.add(Self.credential(3, account: "account-a"))

            try await database.autocommit { sql in try await sql.raw("DELETE FROM accounts WHERE id = 'account-a'").run() }
            #expect(try await store.credentials(accountID: "account-a").isEmpty, "deleting the account removes its passkeys")
        }
    }

    @Test("an account's user handle is made once and differs between accounts", arguments: TestDatabase.all)
    func userHandles(database kind: TestDatabase) async throws {
        try await StackEnvironment.withMigratedDatabase(kind) { (database: any JuiceDatabase) async throws in
            try await Self.addAccount("account-a", to: database)
            try await Self.addAccount("account-b", to: database)
            let store = PasskeyStore(database: database)
            let handle = try await store.userHandle(accountID: "account-a", candidate: [1, 1, 1])
            #expect(handle == [1, 1, 1])
            #expect(try await store.userHandle(accountID: "account-a", candidate: [2, 2, 2]) == [1, 1, 1], "the first handle stays")
            #expect(try await store.userHandle(accountID: "account-b", candidate: [3, 3, 3]) == [3, 3, 3])
        }
    }
}

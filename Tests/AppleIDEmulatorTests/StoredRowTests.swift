import Foundation
import JuiceTestSupport
import Logging
import SQLKit
import Testing

@testable import AppleIDEmulator

@Suite("Rows read back from the emulator's database")
struct StoredRowTests {
    /// Opens a fresh store, runs `body`, closes and removes it.
    private func withStore(_ body: (EmulatorStore) async throws -> Void) async throws {
        let temporary = try TemporaryDirectory("emulator-rows")
        defer { temporary.remove() }
        let store = try await EmulatorStore.open(directory: temporary.url, logger: Logger(label: "test"))
        do {
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    private func insertOutboxEntry(createdAt: Double, deliveredAt: Double?, failedAt: Double?, in store: EmulatorStore) async throws {
        try await store.transaction { database in
            try await database.raw(
                """
                INSERT INTO outbox (jti, audience, url, event_type, event, email, created_at, next_attempt_at, delivered_at, failed_at)
                VALUES (\(bind: "jti-\(createdAt)"), 'com.example.app', 'https://rp.example/n', 'consent-revoked',
                        '{}', 'alice@example.com', \(bind: createdAt), \(bind: createdAt), \(bind: deliveredAt), \(bind: failedAt))
                """
            ).run()
        }
    }

    @Test("An outbox row reads back with its times in whole seconds and its status worked out")
    func outboxEntry() async throws {
        try await withStore { store in
            try await insertOutboxEntry(createdAt: 1_750_000_000.75, deliveredAt: nil, failedAt: nil, in: store)
            try await insertOutboxEntry(createdAt: 1_750_000_001, deliveredAt: 1_750_000_002.5, failedAt: nil, in: store)
            try await insertOutboxEntry(createdAt: 1_750_000_003, deliveredAt: nil, failedAt: 1_750_000_009, in: store)
            let entries = try await store.transaction { try await OutboxEntry.list(appleID: "alice@example.com", in: $0) }
            #expect(entries.map(\.status) == ["pending", "delivered", "failed"])
            #expect(entries.map(\.createdAt.seconds) == [1_750_000_000, 1_750_000_001, 1_750_000_003])
            #expect(entries[1].deliveredAt?.seconds == 1_750_000_002)
            #expect(entries[2].failedAt?.seconds == 1_750_000_009)
            #expect(entries.allSatisfy { $0.appleID == "alice@example.com" && $0.eventType == "consent-revoked" })
            let json = String(decoding: try JSONEncoder().encode(entries[1]), as: UTF8.self)
            #expect(json.contains("\"created_at\":1750000001") && json.contains("\"type\":\"consent-revoked\""))
            #expect(try await store.transaction { try await OutboxEntry.list(appleID: "bob@example.com", in: $0) }.isEmpty)
        }
    }

    @Test("A stored time outside Int64's range is a decoding error, not a trap", arguments: [1e300, -1e19, 9.3e18])
    func timeOutOfRange(stored: Double) async throws {
        try await withStore { store in
            try await insertOutboxEntry(createdAt: stored, deliveredAt: nil, failedAt: nil, in: store)
            await #expect(throws: DecodingError.self) {
                try await store.transaction { try await OutboxEntry.list(appleID: nil, in: $0) }
            }
        }
    }

    @Test("A grant and a team user read back under their own names")
    func grantAndTeamUser() async throws {
        try await withStore { store in
            let created = Date(timeIntervalSince1970: 1_750_000_000)
            let grant = Grant(
                email: "alice@example.com", bundleID: "com.example.app", firstName: "Alice", lastName: "Appleseed", emailChoice: .hide,
                createdAt: created)
            let (found, user, again) = try await store.transaction { database in
                try await grant.insert(in: database)
                let user = try await TeamUser.ensure(
                    email: "alice@example.com", teamID: "TEAM000001", random: EmulatorRandom.system, relayDomain: .privateICloud, in: database)
                return (
                    try await Grant.find(email: "alice@example.com", bundleID: "com.example.app", in: database), user,
                    try await TeamUser.find(subject: user.subject, in: database)
                )
            }
            #expect(found == grant)
            #expect(again == user)
            #expect(user.teamID == "TEAM000001" && user.forwarding && user.relayEmail.hasSuffix("@private.icloud.com"))
        }
    }
}

import JuiceEncodings
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Apple IDs of the configuration in force (``LiveConfiguration``), minus those deleted (deletion is persisted).
struct AppleIDDirectory: Sendable {
    private let live: LiveConfiguration
    private let store: EmulatorStore
    /// Whether each Apple ID is active, read once and forgotten when it is deleted (``stateChanged(email:)``).
    private let active = StoredValueCache<String, Bool>()

    private var accounts: [String: EmulatorConfiguration.AppleID] { live.snapshot.appleIDs }

    init(live: LiveConfiguration, store: EmulatorStore) {
        self.live = live
        self.store = store
    }

    /// Records the configured Apple IDs (a deleted one stays deleted).
    func prepare() async throws {
        let emails = Array(accounts.keys)
        let configured = Array(accounts.values)
        try await store.transaction { database in
            for email in emails {
                try await database.raw("INSERT OR IGNORE INTO apple_ids (email) VALUES (\(bind: email))").run()
            }
            try await ManagedAccountRecord.record(configured, in: database)
        }
    }

    /// The Apple ID when `accountName` and `password` match and it was not deleted.
    func authenticate(accountName: String, password: String) async throws -> EmulatorConfiguration.AppleID? {
        let key = accountName.trimmingHorizontalSpace().lowercased()
        // Compare against a dummy when the account is unknown, so timing does not tell which exist.
        let candidate = accounts[key]
        let matches = constantTimeEquals(password, candidate?.password ?? "\u{0}unknown-account\u{0}")
        guard let candidate, matches, try await isActive(key) else { return nil }
        return candidate
    }

    /// The active Apple ID with `email`.
    func account(email: String) async throws -> EmulatorConfiguration.AppleID? {
        let key = email.lowercased()
        guard let account = accounts[key], try await isActive(key) else { return nil }
        return account
    }

    /// The configured account for `email`, deleted or not (for names in tokens).
    func configured(email: String) -> EmulatorConfiguration.AppleID? {
        accounts[email.lowercased()]
    }

    /// Forgets what is kept of the Apple ID's state: call it once a transaction that may have deleted it has ended.
    func stateChanged(email: String) {
        active.invalidate(email.lowercased())
    }

    /// Forgets every kept state: after a reset or a seed.
    func forgetStates() {
        active.invalidateAll()
    }

    private func isActive(_ key: String) async throws -> Bool {
        try await active.value(for: key) {
            try await store.read { database in try await Self.isActive(email: key, in: database) }
        }
    }

    /// Whether the Apple ID stored under `email` (its storage key) exists and was not deleted, read in `database`.
    static func isActive(email: String, in database: any SQLDatabase) async throws -> Bool {
        try await database.raw("SELECT 1 AS ok FROM apple_ids WHERE email = \(bind: email) AND deleted_at IS NULL").first() != nil
    }
}

extension EmulatorConfiguration.AppleID {
    /// The key the store uses for this Apple ID.
    var storageKey: String { email.lowercased() }
}

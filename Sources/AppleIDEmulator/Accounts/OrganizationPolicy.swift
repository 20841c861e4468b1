import SQLKit

/// The organization's switch per app for a Work & School account: whether it blocks the app.
///
/// A blocked app's authorization is answered `error=access_denied` (with `state`) on the redirect, and
/// a device sign-in with 403 `access_denied`: the person's organization does not let them use it.
struct OrganizationPolicy: Sendable {
    let store: EmulatorStore

    /// Whether the organization managing the Apple ID stored under `email` blocks the app `bundleID`.
    func isBlocked(email: String, bundleID: String) async throws -> Bool {
        try await store.read { database in
            try await database.raw(
                "SELECT 1 AS ok FROM organization_blocks WHERE email = \(bind: email) AND bundle_id = \(bind: bundleID) AND blocked = 1"
            ).first() != nil
        }
    }

    /// The bundle ids the organization blocks for the Apple ID stored under `email`.
    func blockedApps(email: String) async throws -> Set<String> {
        try await store.read { database in
            Set(
                try await database.raw("SELECT bundle_id FROM organization_blocks WHERE email = \(bind: email) AND blocked = 1").all()
                    .map { try $0.decode(column: "bundle_id", as: String.self) })
        }
    }

    /// Switches the block of `bundleID` for a managed Apple ID; `AccountActions.Failure` when the Apple ID
    /// is not a managed account.
    func setBlocked(email: String, bundleID: String, blocked: Bool) async throws {
        try await store.transaction { database in
            guard try await ManagedAccountRecord.find(email: email, in: database) != nil else {
                throw AccountActions.Failure.invalid("this Apple ID is not a Work & School account")
            }
            try await database.raw(
                """
                INSERT INTO organization_blocks (email, bundle_id, blocked) VALUES (\(bind: email), \(bind: bundleID), \(bind: blocked ? 1 : 0))
                ON CONFLICT (email, bundle_id) DO UPDATE SET blocked = excluded.blocked
                """
            ).run()
        }
    }
}

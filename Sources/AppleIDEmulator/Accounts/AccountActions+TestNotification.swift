import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AccountActions {
    /// Queues a `test` notification to the app's `notification_url` about the Apple ID (its `sub` at the
    /// app's team), delivered and retried like any other; returns its outbox id.
    func sendTestNotification(appleID: String, bundleID: String) async throws -> Int {
        let email = appleID.lowercased()
        guard let app = directory.app(bundleID: bundleID) else { throw Failure.notFound("bundle_id is not a registered app") }
        guard app.notificationURL != nil else { throw Failure.invalid("the app has no notification_url") }
        let now = time.now
        let random = self.random
        return try await store.transaction { database in
            guard let client = try await directory.client(bundleID, in: database),
                let user = try await TeamUser.find(email: email, teamID: client.teamID, in: database)
            else {
                throw Failure.notFound("this Apple ID has never signed in to an app of this app's team")
            }
            try await NotificationOutbox.enqueue(.test, subject: user.subject, app: app, appleID: email, now: now, random: random, in: database)
            return try await database.raw("SELECT MAX(id) AS id FROM outbox").first()?.decode(column: "id", as: Int.self) ?? 0
        }
    }
}

import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an Apple ID's owner (portal) or a script (admin endpoints) can do, each change and its
/// notifications committed in one transaction.
struct AccountActions: Sendable {
    /// Why an action did not apply.
    enum Failure: Error, Sendable {
        case notFound(String)
        case invalid(String)
    }

    let store: EmulatorStore
    let directory: ClientDirectory
    let accounts: AppleIDDirectory
    let random: EmulatorRandom
    let time: EmulatorTime

    /// Stop Using Apple ID: ends the grant and its tokens, and notifies the app (`consent-revoked`).
    func revokeConsent(appleID: String, clientID: String) async throws {
        let email = appleID.lowercased()
        let now = time.now
        let random = self.random
        try await store.transaction { database in
            guard let client = try await directory.client(clientID, in: database) else { throw Failure.notFound("client_id is not registered") }
            guard try await Grant.find(email: email, bundleID: client.bundleID, in: database) != nil else {
                throw Failure.notFound("this Apple ID has not authorized this app")
            }
            try await Grant.end(email: email, bundleID: client.bundleID, at: now, in: database)
            if let user = try await TeamUser.find(email: email, teamID: client.teamID, in: database) {
                try await NotificationOutbox.enqueue(
                    .consentRevoked, subject: user.subject, app: client.app, appleID: email, now: now, random: random, in: database
                )
            }
        }
    }

    /// Turns forwarding of the Apple ID's relay address for a team on or off, notifying each of the
    /// team's apps that received that address (`email-enabled` / `email-disabled`).
    func setEmailForwarding(appleID: String, teamID: String, enabled: Bool) async throws {
        let email = appleID.lowercased()
        let now = time.now
        let random = self.random
        try await store.transaction { database in
            guard let user = try await TeamUser.find(email: email, teamID: teamID, in: database) else {
                throw Failure.notFound("this Apple ID has no relay address for this team")
            }
            try await database.raw(
                "UPDATE team_users SET forwarding = \(bind: enabled ? 1 : 0) WHERE email = \(bind: email) AND team_id = \(bind: teamID)"
            ).run()
            for grant in try await Grant.all(email: email, in: database) where grant.emailChoice == .hide {
                guard let client = try await directory.client(grant.bundleID, in: database), client.teamID == teamID else { continue }
                try await NotificationOutbox.enqueue(
                    enabled ? .emailEnabled : .emailDisabled, subject: user.subject, email: user.relayEmail, isPrivateEmail: true,
                    app: client.app, appleID: email, now: now, random: random, in: database
                )
            }
        }
    }

    /// Deletes the Apple ID: every app it authorized is notified (`account-delete`), every grant and
    /// token ends, and it can no longer sign in (also after a restart).
    func deleteAppleID(_ appleID: String) async throws {
        let email = appleID.lowercased()
        let now = time.now
        let random = self.random
        // After the transaction, whatever its outcome: the kept state may say the Apple ID is active.
        defer { accounts.stateChanged(email: email) }
        try await store.transaction { database in
            guard try await AppleIDDirectory.isActive(email: email, in: database) else {
                throw Failure.notFound("no such Apple ID")
            }
            for grant in try await Grant.all(email: email, in: database) {
                if let client = try await directory.client(grant.bundleID, in: database),
                    let user = try await TeamUser.find(email: email, teamID: client.teamID, in: database)
                {
                    try await NotificationOutbox.enqueue(
                        .accountDelete, subject: user.subject, app: client.app, appleID: email, now: now, random: random, in: database
                    )
                }
                try await Grant.end(email: email, bundleID: grant.bundleID, at: now, in: database)
            }
            try await database.raw("UPDATE apple_ids SET deleted_at = \(bind: now.timeIntervalSince1970) WHERE email = \(bind: email)").run()
            try await database.raw("DELETE FROM sessions WHERE email = \(bind: email)").run()
        }
    }

    /// Transfers an app to another team: its client secrets must then be signed by the new team, its
    /// users get new `sub`s there, and for 60 days its tokens carry `transfer_sub`.
    func transferApp(bundleID: String, toTeamID: String) async throws {
        guard directory.app(bundleID: bundleID) != nil else { throw Failure.notFound("bundle_id is not a registered app") }
        guard directory.isTeam(toTeamID) else { throw Failure.notFound("to_team_id is not a registered team") }
        let now = time.now
        // After the transaction, whatever its outcome: the kept team may be the one it replaced.
        defer { directory.teamChanged(bundleID: bundleID) }
        try await store.transaction { database in
            guard let client = try await directory.client(bundleID, in: database), client.teamID != toTeamID else {
                throw Failure.invalid("the app already belongs to this team")
            }
            try await database.raw(
                """
                UPDATE app_teams SET previous_team_id = team_id, team_id = \(bind: toTeamID), transferred_at = \(bind: now.timeIntervalSince1970)
                WHERE bundle_id = \(bind: bundleID)
                """
            ).run()
        }
    }

    /// The apps an Apple ID uses Sign in with Apple with, and its relay addresses.
    func overview(appleID: String) async throws -> AccountOverview {
        let email = appleID.lowercased()
        return try await store.transaction { database in
            var apps: [AccountOverview.AppEntry] = []
            for grant in try await Grant.all(email: email, in: database) {
                guard let client = try await directory.client(grant.bundleID, in: database) else { continue }
                let user = try await TeamUser.find(email: email, teamID: client.teamID, in: database)
                apps.append(.init(grant: grant, teamID: client.teamID, relay: grant.emailChoice == .hide ? user : nil))
            }
            let notifications = try await OutboxEntry.list(appleID: email, in: database)
            let attempts = try await NotificationDeliveryLog.list(appleID: email, in: database)
            return AccountOverview(apps: apps, notifications: notifications, attempts: attempts)
        }
    }
}

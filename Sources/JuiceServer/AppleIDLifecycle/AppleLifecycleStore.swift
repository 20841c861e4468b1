import AppleSignIn
import Foundation
import SQLKit

/// What Apple changes behind the app's back, as stored state (`apple_identities`, `sessions`,
/// `notifications_seen`, `transferred_subjects`): server-to-server notifications (deduplicated on `jti`),
/// credential states, the daily refresh-token check, app transfer.
///
/// Every change that spans tables (an identity's state and its account's sessions, a notification
/// and its effect) is one transaction.
struct AppleLifecycleStore {
    private let database: any JuiceDatabase

    /// Seconds an event may predate the identity's last sign-in and still apply.
    static let staleTolerance: Int64 = 60

    init(database: any JuiceDatabase) {
        self.database = database
    }

    /// Records a verified notification and applies it in one transaction; ``NotificationOutcome/duplicate``
    /// (and no change) when its `jti` was seen before.
    func apply(_ notification: ServerNotification, receivedAt: Date) async throws -> NotificationOutcome {
        let received = Int64(receivedAt.timeIntervalSince1970)
        // An event older than the identity's last sign-in is stale (a consent revoked, then given again). A
        // minute of tolerance for clock differences: a spurious revocation costs a sign-in, a lost one is a hole.
        let eventTime = Int64(notification.eventTime.timeIntervalSince1970.rounded(.up)) + Self.staleTolerance
        return try await database.transaction { sql in
            let inserted = try await sql.insert(into: "notifications_seen").columns("jti", "event_type", "received_at")
                .values(SQLBind(notification.id), SQLBind(String(notification.type.description.prefix(64))), SQLBind(received))
                .ignoringConflicts(with: ["jti"])
                .returning("jti")
                .all()
            guard !inserted.isEmpty else { return .duplicate }
            guard
                let identity = try await sql.select().columns("account_id", "updated_at").from("apple_identities")
                    .where("subject", .equal, notification.subject).first()
            else { return .ignored }
            let accountID = try identity.decode(column: "account_id", as: String.self)
            let stale = try identity.decode(column: "updated_at", as: Int64.self) > eventTime
            switch notification.type {
            case .consentRevoked, .accountDeleted:
                guard !stale else { return .ignored }
                let status: AppleIdentityStatus = notification.type == .consentRevoked ? .revoked : .deleted
                try await sql.update("apple_identities")
                    .set("state", to: status.rawValue).set(SQLColumn("refresh_token"), to: SQLLiteral.null).set("updated_at", to: received)
                    .where("subject", .equal, notification.subject).run()
                let ended = try await SessionsTable.endAll(accountID: accountID, on: sql)
                return .applied(sessionsEnded: ended)
            case .emailDisabled, .emailEnabled:
                try await sql.update("apple_identities")
                    .set("email_forwarding", to: notification.type == .emailEnabled ? 1 : 0)
                    .where("subject", .equal, notification.subject).run()
                // The mail outbox does not send to an Apple ID whose relay is off (it would bounce), until email-enabled.
                if notification.type == .emailDisabled {
                    try await sql.insert(into: "mail_suppressions").columns("apple_subject", "since")
                        .values(SQLBind(notification.subject), SQLBind(received)).ignoringConflicts(with: ["apple_subject"]).run()
                } else {
                    try await sql.delete(from: "mail_suppressions").where("apple_subject", .equal, notification.subject).run()
                }
                return .applied(sessionsEnded: 0)
            case .unknown:
                return .ignored
            }
        }
    }

    /// The credential state of an Apple `sub`.
    func credentialState(subject: String) async throws -> CredentialState {
        try await database.read { sql in
            if let row = try await sql.select().column("state").from("apple_identities").where("subject", .equal, subject).first() {
                return AppleIdentityStatus(stored: try row.decode(column: "state", as: String.self)).credentialState
            }
            if try await sql.select().column("old_subject").from("transferred_subjects").where("old_subject", .equal, subject).first() != nil {
                return .transferred
            }
            return .notFound
        }
    }

    /// Authorized Apple IDs whose refresh token was last checked at or before `checkedBefore` (or never).
    func refreshTokensDue(checkedBefore: Date, limit: Int) async throws -> [StoredAppleCredential] {
        let cutoff = Int64(checkedBefore.timeIntervalSince1970)
        return try await database.read { sql in
            let query: SQLQueryString = """
                SELECT subject, client_id, refresh_token FROM apple_identities
                WHERE state = 'authorized' AND refresh_token IS NOT NULL AND (last_checked_at IS NULL OR last_checked_at <= \(bind: cutoff))
                ORDER BY last_checked_at LIMIT \(unsafeRaw: String(max(1, limit)))
                """
            return try await sql.raw(query).all().map(Self.credential(from:))
        }
    }

    /// Records a successful refresh-token check.
    func markChecked(subject: String, at: Date) async throws {
        try await database.transaction { sql in
            try await sql.update("apple_identities").set("last_checked_at", to: Int64(at.timeIntervalSince1970))
                .where("subject", .equal, subject).run()
        }
    }

    /// Marks an Apple ID revoked (Apple refused its refresh token), drops the token and ends the
    /// account's sessions; returns how many sessions ended.
    @discardableResult
    func markRevoked(subject: String, at: Date) async throws -> Int {
        let now = Int64(at.timeIntervalSince1970)
        return try await database.transaction { sql in
            guard let row = try await sql.select().column("account_id").from("apple_identities").where("subject", .equal, subject).first() else {
                return 0
            }
            try await sql.update("apple_identities")
                .set("state", to: AppleIdentityStatus.revoked.rawValue).set(SQLColumn("refresh_token"), to: SQLLiteral.null).set(
                    "last_checked_at", to: now
                )
                .set("updated_at", to: now)
                .where("subject", .equal, subject).run()
            let accountID = try row.decode(column: "account_id", as: String.self)
            return try await SessionsTable.endAll(accountID: accountID, on: sql)
        }
    }

    /// Apple IDs that have no transfer identifier yet (the sending team's migration step).
    func subjectsWithoutTransferSubject(limit: Int) async throws -> [StoredAppleCredential] {
        try await database.read { sql in
            let query: SQLQueryString = """
                SELECT subject, client_id, refresh_token FROM apple_identities WHERE transfer_subject IS NULL
                ORDER BY subject LIMIT \(unsafeRaw: String(max(1, limit)))
                """
            return try await sql.raw(query).all().map(Self.credential(from:))
        }
    }

    /// Stores the `transfer_sub` Apple gave for `subject` ahead of an app transfer.
    func setTransferSubject(_ transferSubject: String, for subject: String) async throws {
        try await database.transaction { sql in
            try await sql.update("apple_identities").set("transfer_subject", to: transferSubject).where("subject", .equal, subject).run()
        }
    }

    /// Apple IDs that carry a `transfer_sub` not yet exchanged for the receiving team's `sub`, as
    /// (`transfer_sub`, client id) pairs.
    func pendingTransfers(limit: Int) async throws -> [(transferSubject: String, clientID: String)] {
        try await database.read { sql in
            let query: SQLQueryString = """
                SELECT transfer_subject, client_id FROM apple_identities WHERE transfer_subject IS NOT NULL
                ORDER BY transfer_subject LIMIT \(unsafeRaw: String(max(1, limit)))
                """
            return try await sql.raw(query).all().map {
                (try $0.decode(column: "transfer_subject", as: String.self), try $0.decode(column: "client_id", as: String.self))
            }
        }
    }

    /// Re-keys the Apple ID with `transferSubject` to the receiving team's `subject` (the old `sub`
    /// becomes ``CredentialState/transferred``), taking the new team's email when Apple gives one.
    /// Returns whether a row was re-keyed.
    @discardableResult
    func completeTransfer(transferSubject: String, to subject: String, email: String?, isPrivateEmail: Bool?, at: Date) async throws -> Bool {
        let now = Int64(at.timeIntervalSince1970)
        return try await database.transaction { sql in
            // Already re-keyed by a sign-in that carried the transfer_sub: only clear the marker.
            if try await sql.select().column("subject").from("apple_identities").where("subject", .equal, subject).first() != nil {
                try await sql.update("apple_identities").set(SQLColumn("transfer_subject"), to: SQLLiteral.null)
                    .where("transfer_subject", .equal, transferSubject).run()
                return false
            }
            guard let row = try await AppleIdentitiesTable.rekeyTransferred(from: transferSubject, to: subject, at: now, on: sql) else {
                return false
            }
            if let email, !email.isEmpty {
                let accountID = try row.decode(column: "account_id", as: String.self)
                let flag = (isPrivateEmail ?? false) ? 1 : 0
                try await sql.update("apple_identities").set("email", to: email).set("is_private_email", to: flag)
                    .where("subject", .equal, subject).run()
                try await sql.update("accounts").set("email", to: email).set("is_private_email", to: flag).where("id", .equal, accountID).run()
            }
            return true
        }
    }

    static func credential(from row: any SQLRow) throws -> StoredAppleCredential {
        StoredAppleCredential(
            subject: try row.decode(column: "subject", as: String.self),
            clientID: try row.decode(column: "client_id", as: String.self),
            sealedRefreshToken: try row.decode(column: "refresh_token", as: String?.self)
        )
    }
}

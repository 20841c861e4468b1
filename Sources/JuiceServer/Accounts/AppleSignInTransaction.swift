import AppleSignIn
import Foundation
import SQLKit

/// An Apple sign-in's writes, in one transaction: finds or creates the account, applies the sign-in's
/// data, welcomes a new account by mail and starts the session.
struct AppleSignInTransaction {
    let database: any JuiceDatabase
    let random: ServerRandom
    /// Queues the welcome mail in the same transaction; `nil` sends none.
    let mail: MailOutbox?

    /// Finds or creates the account of an Apple sign-in, applies its data and starts a session.
    ///
    /// - An existing Apple ID: its email, relay flag, real-user status and refresh token are updated;
    ///   its name is filled only where empty.
    /// - A new Apple ID with `linkTo`: linked to that account (refused if it already has another Apple ID).
    /// - A new Apple ID otherwise: a new account.
    /// - Throws: ``AccountStoreError/appleIDBelongsToAnotherAccount`` when `linkTo` names another account than the Apple ID's.
    func run(
        _ signIn: AppleSignInRecord, linkTo linkAccountID: String?, replacingSession: String?, session: SessionDraft
    ) async throws -> AppleSignInResult {
        if linkAccountID == nil, replacingSession == nil, database.supportsWritingCTEs,
            let account = try await database.autocommit({ sql in try await Self.returningSignIn(signIn, session: session, on: sql) })
        {
            // The profile rarely changes on a returning sign-in; a write only when it does.
            let (written, changes) = Self.profile(signIn, appliedTo: account)
            if !changes.isEmpty {
                try await database.autocommit { sql in try await Self.writeProfile(changes, accountID: account.id, on: sql) }
            }
            return AppleSignInResult(account: written, session: session.session(accountID: account.id), createdAccount: false, linked: false)
        }
        let newAccountID = random.identifier()
        let mail = mail
        return try await database.transaction { sql in
            let now = Int64(signIn.at.timeIntervalSince1970)
            // A known Apple ID is updated and found in one statement (a refusal below rolls it back).
            var existing = try await Self.refreshIdentity(signIn, at: now, on: sql)
            if existing == nil, let transferSubject = signIn.transferSubject,
                try await AppleIdentitiesTable.rekeyTransferred(from: transferSubject, to: signIn.subject, at: now, on: sql) != nil
            {
                existing = try await Self.refreshIdentity(signIn, at: now, on: sql)
            }
            let accountID: String
            var created = false
            var linked = false
            if let existing {
                accountID = try existing.decode(column: "account_id", as: String.self)
                if let linkAccountID, linkAccountID != accountID {
                    throw AccountStoreError.appleIDBelongsToAnotherAccount
                }
            } else {
                if let linkAccountID {
                    let target = try await sql.select().column("id").from("accounts").where("id", .equal, linkAccountID).first()
                    let other = try await sql.select().column("subject").from("apple_identities").where("account_id", .equal, linkAccountID).first()
                    guard target != nil else { throw AccountStoreError.linkTargetMissing }
                    guard other == nil else {
                        throw AccountStoreError.accountHasAnotherAppleID
                    }
                    accountID = linkAccountID
                    linked = true
                } else {
                    accountID = newAccountID
                    created = true
                    try await AccountsTable.insert(id: accountID, username: nil, at: now, on: sql)
                }
                try await sql.insert(into: "apple_identities")
                    .columns(
                        "subject", "account_id", "client_id", "email", "is_private_email", "real_user_status", "refresh_token", "state", "created_at",
                        "updated_at", "last_checked_at"
                    )
                    .values(
                        SQLBind(signIn.subject), SQLBind(accountID), SQLBind(signIn.clientID), SQLBind(signIn.email),
                        SQLBind(signIn.isPrivateEmail.map { $0 ? 1 : 0 }), SQLBind(signIn.realUserStatus?.rawValue),
                        SQLBind(signIn.sealedRefreshToken),
                        SQLBind(AppleIdentityStatus.authorized.rawValue), SQLBind(now), SQLBind(now),
                        SQLBind(signIn.sealedRefreshToken == nil ? nil : now)
                    )
                    .run()
            }
            guard let stored = try await AccountsTable.load(where: "a.id", equals: accountID, on: sql) else { throw AccountStoreError.accountMissing }
            let account = try await Self.applyProfile(signIn, to: stored, on: sql)
            // Only a new account is welcomed (never a returning sign-in or a link), to the email Apple gave.
            if created, let mail, let email = signIn.email?.trimmed, !email.isEmpty {
                try await mail.enqueueWelcome(
                    to: email, givenName: signIn.givenName, isPrivateEmail: signIn.isPrivateEmail ?? false, appleSubject: signIn.subject, at: now,
                    on: sql)
            }
            if let replacingSession {
                try await SessionsTable.end(id: replacingSession, on: sql)
            }
            try await SessionsTable.insert(session, accountID: accountID, on: sql)
            return AppleSignInResult(account: account, session: session.session(accountID: accountID), createdAccount: created, linked: linked)
        }
    }

    /// Records this sign-in on the Apple ID's row, if it has one: the row's `account_id`, or `nil`.
    static func refreshIdentity(_ signIn: AppleSignInRecord, at now: Int64, on sql: any SQLDatabase) async throws -> (any SQLRow)? {
        let query: SQLQueryString =
            "UPDATE apple_identities SET " + identityAssignments(signIn, at: now) + " WHERE subject = \(bind: signIn.subject) RETURNING account_id"
        return try await sql.raw(query).first()
    }

    /// What a sign-in writes to its Apple ID's row: the client id, `authorized`, and whatever Apple
    /// sent this time (an absent value keeps the stored one).
    static func identityAssignments(_ signIn: AppleSignInRecord, at now: Int64) -> SQLQueryString {
        var assignments: [SQLQueryString] = [
            "client_id = \(bind: signIn.clientID)", "state = \(bind: AppleIdentityStatus.authorized.rawValue)", "updated_at = \(bind: now)",
        ]
        if let email = signIn.email { assignments.append("email = \(bind: email)") }
        if let isPrivate = signIn.isPrivateEmail { assignments.append("is_private_email = \(bind: isPrivate ? 1 : 0)") }
        if let status = signIn.realUserStatus { assignments.append("real_user_status = \(bind: status.rawValue)") }
        if let sealed = signIn.sealedRefreshToken { assignments.append("refresh_token = \(bind: sealed), last_checked_at = \(bind: now)") }
        return assignments.joined(separator: ", ")
    }

    /// Fills the name only where the account has none; takes the email from Apple when it sends one.
    /// Starts from `account` as this transaction just read it and returns it as written, so the row is
    /// not read a second time; a returning sign-in that changes nothing writes nothing.
    static func applyProfile(_ signIn: AppleSignInRecord, to account: Account, on sql: any SQLDatabase) async throws -> Account {
        let (written, changes) = profile(signIn, appliedTo: account)
        try await writeProfile(changes, accountID: account.id, on: sql)
        return written
    }

    /// The account as `signIn` leaves it, and the columns that change (none: nothing to write).
    static func profile(_ signIn: AppleSignInRecord, appliedTo account: Account) -> (account: Account, changes: [ProfileChange]) {
        var written = account
        var changes: [ProfileChange] = []
        if account.givenName.isBlank, let given = signIn.givenName?.trimmed, !given.isEmpty {
            changes.append(("given_name", given))
            written.givenName = given
        }
        if account.familyName.isBlank, let family = signIn.familyName?.trimmed, !family.isEmpty {
            changes.append(("family_name", family))
            written.familyName = family
        }
        let isPrivate = signIn.isPrivateEmail ?? false
        if let email = signIn.email?.trimmed, !email.isEmpty, email != account.email || isPrivate != account.isPrivateEmail {
            changes.append(("email", email))
            changes.append(("is_private_email", isPrivate ? 1 : 0))
            written.email = email
            written.isPrivateEmail = isPrivate
        }
        return (written, changes)
    }

    /// One column of `accounts` a sign-in changes, and its new value.
    typealias ProfileChange = (column: String, value: any Encodable & Sendable)

    /// Writes `changes` to the account's row; nothing when there are none.
    static func writeProfile(_ changes: [ProfileChange], accountID: String, on sql: any SQLDatabase) async throws {
        guard !changes.isEmpty else { return }
        var update = sql.update("accounts")
        for change in changes { update = update.set(change.column, to: change.value) }
        try await update.where("id", .equal, accountID).run()
    }
}

import AppleSignIn
import Foundation
import Hummingbird
import SQLKit

/// ``AccountRepository`` on the `accounts` (with the username), `apple_identities`, `password_credentials` and
/// `sessions` tables; every multi-table write is one transaction.
struct SQLAccountRepository: AccountRepository {
    private let database: any JuiceDatabase
    private let random: ServerRandom
    private let mail: MailOutbox?

    /// - Parameter mail: Queues the welcome and deletion mails in the same transactions; `nil` sends none.
    init(database: any JuiceDatabase, random: ServerRandom, mail: MailOutbox? = nil) {
        self.database = database
        self.random = random
        self.mail = mail
    }

    func account(id: String) async throws -> Account? {
        try await database.read { sql in try await AccountsTable.load(where: "a.id", equals: id, on: sql) }
    }

    func account(appleSubject subject: String) async throws -> Account? {
        try await database.read { sql in try await AccountsTable.load(where: "i.subject", equals: subject, on: sql) }
    }

    func passwordCredential(username: String) async throws -> StoredPasswordCredential? {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT a.id AS account_id, a.username, p.password_hash FROM accounts a
                JOIN password_credentials p ON p.account_id = a.id WHERE a.username = \(bind: username)
                """
            ).first()
                .map {
                    StoredPasswordCredential(
                        accountID: try $0.decode(column: "account_id", as: String.self),
                        username: try $0.decode(column: "username", as: String.self),
                        passwordHash: try $0.decode(column: "password_hash", as: String.self)
                    )
                }
        }
    }

    func isUsernameTaken(_ username: String) async throws -> Bool {
        try await database.read { sql in
            try await sql.select().column("id").from("accounts").where("username", .equal, username).first() != nil
        }
    }

    func createPasswordAccount(username: String, passwordHash: String, session: SessionDraft) async throws -> (Account, Session) {
        let accountID = random.identifier()
        return try await database.transaction { sql in
            let now = Int64(session.createdAt.timeIntervalSince1970)
            try await AccountsTable.insert(id: accountID, username: username, at: now, on: sql)
            try await sql.insert(into: "password_credentials").columns("account_id", "password_hash", "created_at")
                .values(SQLBind(accountID), SQLBind(passwordHash), SQLBind(now)).run()
            try await SessionsTable.insert(session, accountID: accountID, on: sql)
            guard let account = try await AccountsTable.load(where: "a.id", equals: accountID, on: sql) else {
                throw AccountStoreError.accountMissing
            }
            return (account, session.session(accountID: accountID))
        }
    }

    func startSession(_ draft: SessionDraft, accountID: String) async throws -> Session {
        try await database.transaction { sql in
            try await SessionsTable.insert(draft, accountID: accountID, on: sql)
            return draft.session(accountID: accountID)
        }
    }

    func completeAppleSignIn(
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
                    try await sql.insert(into: "accounts").columns("id", "created_at", "is_private_email")
                        .values(SQLBind(accountID), SQLBind(now), SQLBind(0)).run()
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
                try await sql.delete(from: "sessions").where("id", .equal, replacingSession).run()
            }
            try await SessionsTable.insert(session, accountID: accountID, on: sql)
            return AppleSignInResult(account: account, session: session.session(accountID: accountID), createdAccount: created, linked: linked)
        }
    }

    func appleCredential(accountID: String) async throws -> StoredAppleCredential? {
        try await database.read { sql in
            try await sql.select().columns("subject", "client_id", "refresh_token").from("apple_identities")
                .where("account_id", .equal, accountID).first()
                .map {
                    StoredAppleCredential(
                        subject: try $0.decode(column: "subject", as: String.self),
                        clientID: try $0.decode(column: "client_id", as: String.self),
                        sealedRefreshToken: try $0.decode(column: "refresh_token", as: String?.self)
                    )
                }
        }
    }

    func deleteAccount(id: String, at: Date) async throws -> DeletedAccount? {
        let revocationID = random.identifier()
        let now = Int64(at.timeIntervalSince1970)
        let mail = mail
        return try await database.transaction { sql -> DeletedAccount? in
            guard let account = try await sql.select().columns("id", "email").from("accounts").where("id", .equal, id).first() else { return nil }
            let identity = try await sql.select().columns("subject", "client_id", "refresh_token").from("apple_identities")
                .where("account_id", .equal, id).first()
            // Explicit deletes keep this independent of the database's foreign-key enforcement.
            try await sql.delete(from: "sessions").where("account_id", .equal, id).run()
            try await sql.delete(from: "password_credentials").where("account_id", .equal, id).run()
            try await sql.delete(from: "apple_identities").where("account_id", .equal, id).run()
            try await sql.delete(from: "accounts").where("id", .equal, id).run()
            let clientID = try identity?.decode(column: "client_id", as: String.self)
            let sealed = try identity.flatMap { try $0.decode(column: "refresh_token", as: String?.self) }
            let subject = try identity?.decode(column: "subject", as: String.self)
            if let mail, let email = try account.decode(column: "email", as: String?.self), !email.trimmed.isEmpty {
                try await mail.enqueueDeletionConfirmation(to: email, appleSubject: subject, at: now, on: sql)
            }
            var queued: String?
            if let clientID, let sealed, let subject {
                try await sql.insert(into: "pending_revocations")
                    .columns("id", "subject", "client_id", "sealed_token", "attempts", "next_attempt_at", "created_at")
                    .values(SQLBind(revocationID), SQLBind(subject), SQLBind(clientID), SQLBind(sealed), SQLBind(0), SQLBind(now), SQLBind(now))
                    .run()
                queued = revocationID
            }
            return DeletedAccount(
                accountID: id, appleClientID: clientID, sealedRefreshToken: sealed, appleSubject: subject, pendingRevocationID: queued
            )
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

extension Optional where Wrapped == String {
    /// Whether the value is absent or only whitespace.
    var isBlank: Bool { self?.trimmed.isEmpty ?? true }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

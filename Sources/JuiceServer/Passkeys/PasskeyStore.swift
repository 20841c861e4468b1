import Foundation
import JuiceEncodings
import SQLKit
import WebAuthn

/// Passkeys, their accounts' user handles and the ceremonies' challenges, on the `passkey_credentials`,
/// `passkey_users` and `passkey_challenges` tables.
/// Byte strings are stored as base64url text, times as Unix seconds.
struct PasskeyStore {
    let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    /// Stores a new challenge.
    func saveChallenge(_ challenge: PasskeyChallenge) async throws {
        let row: [any Encodable & Sendable] = [
            Base64URL.encode(challenge.challenge), challenge.purpose.rawValue, challenge.accountID, challenge.sessionID,
            PasskeyCredentialsTable.seconds(challenge.createdAt), PasskeyCredentialsTable.seconds(challenge.expiresAt),
        ]
        try await database.autocommit { sql in
            try await sql.insert(into: "passkey_challenges")
                .columns("challenge", "purpose", "account_id", "session_id", "created_at", "expires_at")
                .values(row.map { SQLBind($0) }).run()
        }
    }

    /// Takes the challenge for `purpose` out of the store in one statement, so that it works once
    /// across every instance; throws ``PasskeyError`` `challenge_unknown` when it was never issued,
    /// was already used or is for the other ceremony, `challenge_expired` when its time is over.
    func consumeChallenge(_ challenge: [UInt8], purpose: PasskeyChallenge.Purpose, now: Date) async throws -> PasskeyChallenge {
        let key = Base64URL.encode(challenge)
        let row = try await database.autocommit { sql in
            // One statement: once it returns the row, no other request or instance can have it.
            try await sql.delete(from: "passkey_challenges").where("challenge", .equal, key).where("purpose", .equal, purpose.rawValue)
                .returning("account_id", "session_id", "created_at", "expires_at").first()
        }
        guard let row else { throw PasskeyError(.challengeUnknown, "the challenge was not issued for this ceremony, or was used") }
        let stored = PasskeyChallenge(
            challenge: challenge, purpose: purpose, accountID: try row.decode(column: "account_id", as: String?.self),
            sessionID: try row.decode(column: "session_id", as: String?.self),
            createdAt: PasskeyCredentialsTable.date(try row.decode(column: "created_at", as: Int64.self)),
            expiresAt: PasskeyCredentialsTable.date(try row.decode(column: "expires_at", as: Int64.self)))
        guard stored.expiresAt > now else { throw PasskeyError(.challengeExpired, "the challenge's time is over") }
        return stored
    }

    @discardableResult
    func purgeExpiredChallenges(now: Date) async throws -> Int {
        let seconds = PasskeyCredentialsTable.seconds(now)
        return try await database.autocommit { sql in
            try await sql.delete(from: "passkey_challenges").where("expires_at", .lessThanOrEqual, seconds).returning("challenge").all().count
        }
    }

    /// The account's user handle, created from `candidate` when it has none yet.
    func userHandle(accountID: String, candidate: [UInt8]) async throws -> [UInt8] {
        let encoded = Base64URL.encode(candidate)
        let stored = try await database.transaction { sql in
            try await sql.raw(
                "INSERT INTO passkey_users (account_id, user_handle) VALUES (\(bind: accountID), \(bind: encoded)) ON CONFLICT (account_id) DO NOTHING"
            ).run()
            return try await sql.select().column("user_handle").from("passkey_users").where("account_id", .equal, accountID).first()?
                .decode(column: "user_handle", as: String.self)
        }
        guard let stored, let handle = Base64URL.decode(stored) else { throw AccountStoreError.accountMissing }
        return handle
    }

    /// Stores a new passkey; throws ``PasskeyError`` `credential_exists` when its id is taken.
    func add(_ credential: PasskeyCredential) async throws {
        try await database.autocommit { sql in try await PasskeyCredentialsTable.insert(credential, on: sql) }
    }

    /// The passkey with `credentialID`, whichever account it belongs to.
    func credential(id credentialID: [UInt8]) async throws -> PasskeyCredential? {
        let key = Base64URL.encode(credentialID)
        let row = try await database.read { sql in
            try await sql.select().columns(PasskeyCredentialsTable.columns.map { SQLColumn($0) }).from("passkey_credentials")
                .where("credential_id", .equal, key).first()
        }
        return try row.map(PasskeyCredentialsTable.credential(from:))
    }

    /// The account's passkeys, oldest first.
    func credentials(accountID: String) async throws -> [PasskeyCredential] {
        let rows = try await database.read { sql in
            try await sql.select().columns(PasskeyCredentialsTable.columns.map { SQLColumn($0) }).from("passkey_credentials")
                .where("account_id", .equal, accountID).orderBy("created_at").orderBy("credential_id").all()
        }
        return try rows.map(PasskeyCredentialsTable.credential(from:))
    }

    /// Records a sign-in with the passkey: the new counter, BS and the time, only while the stored
    /// counter is still `previousSignCount` (so two assertions racing with one counter cannot both
    /// succeed). Returns whether it was recorded.
    func recordUse(credentialID: [UInt8], previousSignCount: UInt32, signCount: UInt32, backedUp: Bool, at now: Date) async throws -> Bool {
        try await database.transaction { sql in
            try await PasskeyCredentialsTable.recordUse(
                credentialID: credentialID, previousSignCount: previousSignCount, signCount: signCount, backedUp: backedUp, at: now, on: sql)
        }
    }

    /// Renames the account's passkey; returns whether it had one with that id.
    func rename(credentialID: [UInt8], accountID: String, to name: String) async throws -> Bool {
        let key = Base64URL.encode(credentialID)
        return try await database.transaction { sql in
            try await sql.update("passkey_credentials").set("name", to: name)
                .where("credential_id", .equal, key).where("account_id", .equal, accountID)
                .returning("credential_id").first() != nil
        }
    }

    /// Removes the account's passkey, unless it is the account's last way to sign in (no password,
    /// no Apple ID, no other passkey).
    func remove(credentialID: [UInt8], accountID: String) async throws -> PasskeyRemoval {
        let key = Base64URL.encode(credentialID)
        return try await database.transaction { sql in
            // PostgreSQL: the account row is locked first, so two removals of an account's last two
            // passkeys cannot both see the other one still there. SQLite runs one write transaction at a time.
            if sql.dialect.name == "postgresql" {
                try await sql.raw("SELECT id FROM accounts WHERE id = \(bind: accountID) FOR UPDATE").run()
            }
            let owned = try await sql.select().column("credential_id").from("passkey_credentials")
                .where("credential_id", .equal, key).where("account_id", .equal, accountID).first()
            guard owned != nil else { return .notFound }
            let others =
                try await sql.raw(
                    """
                    SELECT (SELECT COUNT(*) FROM passkey_credentials WHERE account_id = \(bind: accountID) AND credential_id <> \(bind: key))
                         + (SELECT COUNT(*) FROM password_credentials WHERE account_id = \(bind: accountID))
                         + (SELECT COUNT(*) FROM apple_identities WHERE account_id = \(bind: accountID)) AS methods
                    """
                ).first()?.decode(column: "methods", as: Int64.self) ?? 0
            guard others > 0 else { return .lastSignInMethod }
            try await sql.delete(from: "passkey_credentials").where("credential_id", .equal, key).run()
            return .removed
        }
    }

}

import Foundation
import JuiceEncodings
import SQLKit
import WebAuthn

/// ``PasskeyStore`` on the `passkey_credentials`, `passkey_users` and `passkey_challenges` tables.
/// Byte strings are stored as base64url text, times as Unix seconds.
struct SQLPasskeyStore: PasskeyStore {
    let database: any JuiceDatabase
    private static let columns = [
        "credential_id", "account_id", "user_handle", "public_key", "algorithm", "sign_count", "transports", "backup_eligible",
        "backed_up", "name", "created_at", "last_used_at", "aaguid", "automatic",
    ]

    init(database: any JuiceDatabase) {
        self.database = database
    }

    func saveChallenge(_ challenge: PasskeyChallenge) async throws {
        let row: [any Encodable & Sendable] = [
            Base64URL.encode(challenge.challenge), challenge.purpose.rawValue, challenge.accountID, challenge.sessionID,
            Self.seconds(challenge.createdAt), Self.seconds(challenge.expiresAt),
        ]
        try await database.autocommit { sql in
            try await sql.insert(into: "passkey_challenges")
                .columns("challenge", "purpose", "account_id", "session_id", "created_at", "expires_at")
                .values(row.map { SQLBind($0) }).run()
        }
    }

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
            createdAt: Self.date(try row.decode(column: "created_at", as: Int64.self)),
            expiresAt: Self.date(try row.decode(column: "expires_at", as: Int64.self)))
        guard stored.expiresAt > now else { throw PasskeyError(.challengeExpired, "the challenge's time is over") }
        return stored
    }

    @discardableResult
    func purgeExpiredChallenges(now: Date) async throws -> Int {
        let seconds = Self.seconds(now)
        return try await database.autocommit { sql in
            try await sql.delete(from: "passkey_challenges").where("expires_at", .lessThanOrEqual, seconds).returning("challenge").all().count
        }
    }

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

    func add(_ credential: PasskeyCredential) async throws {
        try await database.autocommit { sql in try await Self.insert(credential, on: sql) }
    }

    /// Inserts `credential` (one statement); throws ``PasskeyError`` `credential_exists` when its id is taken.
    static func insert(_ credential: PasskeyCredential, on sql: any SQLDatabase) async throws {
        let row: [any Encodable & Sendable] = [
            Base64URL.encode(credential.credentialID), credential.accountID, Base64URL.encode(credential.userHandle),
            Base64URL.encode(credential.publicKey), Int64(credential.algorithm.rawValue), Int64(credential.signCount),
            credential.transports.joined(separator: ","), credential.backupEligible ? 1 : 0, credential.backedUp ? 1 : 0,
            credential.name, seconds(credential.createdAt), credential.lastUsedAt.map(seconds), credential.aaguid.flatMap(PasskeyProviders.text),
            credential.automatic ? 1 : 0,
        ]
        let inserted = try await sql.insert(into: "passkey_credentials").columns(columns).values(row.map { SQLBind($0) })
            .ignoringConflicts(with: ["credential_id"])
            .returning("credential_id").first()
        guard inserted != nil else { throw PasskeyError(.credentialExists, "this passkey is already registered") }
    }

    func credential(id credentialID: [UInt8]) async throws -> PasskeyCredential? {
        let key = Base64URL.encode(credentialID)
        let row = try await database.read { sql in
            try await sql.select().columns(Self.columns.map { SQLColumn($0) }).from("passkey_credentials")
                .where("credential_id", .equal, key).first()
        }
        return try row.map(Self.credential(from:))
    }

    func credentials(accountID: String) async throws -> [PasskeyCredential] {
        let rows = try await database.read { sql in
            try await sql.select().columns(Self.columns.map { SQLColumn($0) }).from("passkey_credentials")
                .where("account_id", .equal, accountID).orderBy("created_at").orderBy("credential_id").all()
        }
        return try rows.map(Self.credential(from:))
    }

    func recordUse(credentialID: [UInt8], previousSignCount: UInt32, signCount: UInt32, backedUp: Bool, at now: Date) async throws -> Bool {
        try await database.transaction { sql in
            try await Self.recordUse(
                credentialID: credentialID, previousSignCount: previousSignCount, signCount: signCount, backedUp: backedUp, at: now, on: sql)
        }
    }

    func completeSignIn(_ record: PasskeySignInRecord) async throws -> Account {
        try await database.transaction { sql in
            // The spend first: a replay is told as one, not as the counter regression it would also be.
            let spent = try await SpentValues.spend([record.challengeSpentValueID], at: Self.seconds(record.at), on: sql)
            guard !spent.isEmpty else { throw PasskeyError(.challengeUnknown, "the challenge was used") }
            let recorded = try await Self.recordUse(
                credentialID: record.credentialID, previousSignCount: record.previousSignCount, signCount: record.signCount,
                backedUp: record.backedUp, at: record.at, on: sql)
            guard recorded else {
                throw PasskeyError(.counterRegressed, "another sign-in with this passkey used the same signature counter")
            }
            try await SessionsTable.insert(record.session, accountID: record.accountID, on: sql)
            guard let account = try await AccountsTable.load(where: "a.id", equals: record.accountID, on: sql) else {
                throw PasskeyError(.unknownCredential, "the account is gone")
            }
            return account
        }
    }

    /// The counter update of ``recordUse(credentialID:previousSignCount:signCount:backedUp:at:)``, on `sql`.
    private static func recordUse(
        credentialID: [UInt8], previousSignCount: UInt32, signCount: UInt32, backedUp: Bool, at now: Date, on sql: any SQLDatabase
    ) async throws -> Bool {
        // SQL text, not a builder: this runs on every passkey sign-in (see docs/performance.md).
        let query: SQLQueryString = """
            UPDATE passkey_credentials SET sign_count = \(bind: Int64(signCount)), backed_up = \(bind: backedUp ? 1 : 0), last_used_at = \(bind: seconds(now))
            WHERE credential_id = \(bind: Base64URL.encode(credentialID)) AND sign_count = \(bind: Int64(previousSignCount))
            RETURNING credential_id
            """
        return try await sql.raw(query).first() != nil
    }

    func rename(credentialID: [UInt8], accountID: String, to name: String) async throws -> Bool {
        let key = Base64URL.encode(credentialID)
        return try await database.transaction { sql in
            try await sql.update("passkey_credentials").set("name", to: name)
                .where("credential_id", .equal, key).where("account_id", .equal, accountID)
                .returning("credential_id").first() != nil
        }
    }

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

    private static func credential(from row: any SQLRow) throws -> PasskeyCredential {
        func bytes(_ column: String) throws -> [UInt8] {
            guard let value = Base64URL.decode(try row.decode(column: column, as: String.self)) else { throw PasskeyStoreError.unreadableRow(column) }
            return value
        }
        let algorithmNumber = try row.decode(column: "algorithm", as: Int64.self)
        let signCount = try row.decode(column: "sign_count", as: Int64.self)
        guard let algorithm = COSEAlgorithm(rawValue: Int(algorithmNumber)), let count = UInt32(exactly: signCount) else {
            throw PasskeyStoreError.unreadableRow("algorithm or sign_count")
        }
        let transports = try row.decode(column: "transports", as: String.self)
        return PasskeyCredential(
            credentialID: try bytes("credential_id"), accountID: try row.decode(column: "account_id", as: String.self),
            userHandle: try bytes("user_handle"), publicKey: try bytes("public_key"), algorithm: algorithm, signCount: count,
            transports: transports.isEmpty ? [] : transports.split(separator: ",").map(String.init),
            backupEligible: try row.decode(column: "backup_eligible", as: Int64.self) != 0,
            backedUp: try row.decode(column: "backed_up", as: Int64.self) != 0,
            name: try row.decode(column: "name", as: String.self),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self).map(date),
            aaguid: try row.decode(column: "aaguid", as: String?.self).flatMap(PasskeyProviders.bytes),
            automatic: try row.decode(column: "automatic", as: Int64.self) != 0)
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
    private static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}

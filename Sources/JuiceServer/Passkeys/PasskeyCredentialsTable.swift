import Foundation
import JuiceEncodings
import SQLKit
import WebAuthn

/// The statements on `passkey_credentials` that more than one transaction runs (``PasskeyStore``,
/// ``PasskeySignInTransaction``, ``PasskeySignUpTransaction``), and its rows read back. Byte strings are
/// stored as base64url text, times as Unix seconds.
enum PasskeyCredentialsTable {
    /// The table's columns, in the order ``insert(_:on:)`` writes them.
    static let columns = [
        "credential_id", "account_id", "user_handle", "public_key", "algorithm", "sign_count", "transports", "backup_eligible",
        "backed_up", "name", "created_at", "last_used_at", "aaguid", "automatic",
    ]

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

    /// Records a sign-in's new counter, BS and time, only while the stored counter is still
    /// `previousSignCount` (one statement); returns whether it was recorded.
    static func recordUse(
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

    /// A stored passkey; ``PasskeyStoreError/unreadableRow(_:)`` when a column cannot be read.
    static func credential(from row: any SQLRow) throws -> PasskeyCredential {
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

    /// Unix seconds, rounded down.
    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
    /// The date of Unix `seconds`.
    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}

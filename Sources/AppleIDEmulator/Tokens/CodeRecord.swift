import JuiceEncodings
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A stored (hashed) authorization code.
struct CodeRecord: Sendable {
    let clientID: String
    let redirectURI: String?
    let email: String
    let bundleID: String
    let scopes: [String]
    let nonce: String?
    let authTime: Date
    let device: Bool
    let expiresAt: Date
    let usedAt: Date?

    /// How long a code lives.
    static let lifetime: TimeInterval = 300

    func insert(code: String, in database: any SQLDatabase) async throws {
        try await database.raw(
            """
            INSERT INTO codes (code_hash, client_id, redirect_uri, email, bundle_id, scopes, nonce, auth_time, device, expires_at)
            VALUES (\(bind: sha256Hex(code)), \(bind: clientID), \(bind: redirectURI), \(bind: email), \(bind: bundleID),
                    \(bind: scopes.joined(separator: " ")), \(bind: nonce), \(bind: authTime.timeIntervalSince1970), \(bind: device ? 1 : 0),
                    \(bind: expiresAt.timeIntervalSince1970))
            """
        ).run()
    }

    static func find(_ code: String, in database: any SQLDatabase) async throws -> CodeRecord? {
        guard let row = try await database.raw("SELECT * FROM codes WHERE code_hash = \(bind: sha256Hex(code))").first() else { return nil }
        return try CodeRecord(row: row)
    }

    /// Marks the code used and returns it, in one statement, when it exists and was not used before;
    /// `nil` otherwise. Its ``usedAt`` is `now`. A caller that then refuses the code throws, and the
    /// transaction's rollback leaves it unused.
    static func claim(_ code: String, at now: Date, in database: any SQLDatabase) async throws -> CodeRecord? {
        guard
            let row = try await database.raw(
                """
                UPDATE codes SET used_at = \(bind: now.timeIntervalSince1970)
                WHERE code_hash = \(bind: sha256Hex(code)) AND used_at IS NULL RETURNING *
                """
            ).first()
        else { return nil }
        return try CodeRecord(row: row)
    }
}

extension CodeRecord {
    /// A `codes` row.
    fileprivate init(row: any SQLRow) throws {
        self.init(
            clientID: try row.decode(column: "client_id", as: String.self),
            redirectURI: try row.decode(column: "redirect_uri", as: String?.self),
            email: try row.decode(column: "email", as: String.self),
            bundleID: try row.decode(column: "bundle_id", as: String.self),
            scopes: try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init),
            nonce: try row.decode(column: "nonce", as: String?.self),
            authTime: Date(timeIntervalSince1970: try row.decode(column: "auth_time", as: Double.self)),
            device: try row.decode(column: "device", as: Int.self) != 0,
            expiresAt: Date(timeIntervalSince1970: try row.decode(column: "expires_at", as: Double.self)),
            usedAt: try row.decode(column: "used_at", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        )
    }
}

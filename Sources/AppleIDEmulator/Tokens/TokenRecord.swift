import JuiceEncodings
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A stored (hashed) refresh, access or migration token.
struct TokenRecord: Sendable {
    enum Kind: String, Sendable {
        case refresh
        case access
        case migration
    }

    let kind: Kind
    let clientID: String
    let email: String?
    let bundleID: String
    let teamID: String
    let scopes: [String]
    let authTime: Date?
    let device: Bool
    let expiresAt: Date?
    let revokedAt: Date?

    static func insert(_ token: String, _ record: TokenRecord, now: Date, in database: any SQLDatabase) async throws {
        try await insert([(token, record)], now: now, in: database)
    }

    /// Stores several tokens in one statement.
    static func insert(_ tokens: [(token: String, record: TokenRecord)], now: Date, in database: any SQLDatabase) async throws {
        let rows = tokens.map { token, record -> SQLQueryString in
            """
            (\(bind: sha256Hex(token)), \(bind: record.kind.rawValue), \(bind: record.clientID), \(bind: record.email),
             \(bind: record.bundleID), \(bind: record.teamID), \(bind: record.scopes.joined(separator: " ")),
             \(bind: record.authTime?.timeIntervalSince1970), \(bind: record.device ? 1 : 0), \(bind: now.timeIntervalSince1970),
             \(bind: record.expiresAt?.timeIntervalSince1970))
            """
        }
        try await database.raw(
            "INSERT INTO tokens (token_hash, kind, client_id, email, bundle_id, team_id, scopes, auth_time, device, created_at, expires_at) VALUES "
                + rows.joined(separator: ", ")
        ).run()
    }

    static func find(_ token: String, in database: any SQLDatabase) async throws -> TokenRecord? {
        guard let row = try await database.raw("SELECT * FROM tokens WHERE token_hash = \(bind: sha256Hex(token))").first() else {
            return nil
        }
        return TokenRecord(
            kind: Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .access,
            clientID: try row.decode(column: "client_id", as: String.self),
            email: try row.decode(column: "email", as: String?.self),
            bundleID: try row.decode(column: "bundle_id", as: String.self),
            teamID: try row.decode(column: "team_id", as: String.self),
            scopes: try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init),
            authTime: try row.decode(column: "auth_time", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            device: try row.decode(column: "device", as: Int.self) != 0,
            expiresAt: try row.decode(column: "expires_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            revokedAt: try row.decode(column: "revoked_at", as: Double?.self).map(Date.init(timeIntervalSince1970:))
        )
    }

    func isUsable(at now: Date) -> Bool {
        revokedAt == nil && (expiresAt.map { $0 > now } ?? true)
    }
}

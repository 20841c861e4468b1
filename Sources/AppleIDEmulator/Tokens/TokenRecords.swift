import Foundation
import SQLKit

/// Apple-shaped random credentials: `c…` codes, `r…` refresh tokens, `a…` access tokens.
enum Credential {
    static func make(prefix: Character, random: EmulatorRandom) -> String {
        String(prefix) + random.hex(bytes: 16) + ".0." + random.string(length: 4, alphabet: "abcdefghijklmnopqrstuvwxyz")
            + "." + random.string(length: 22, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    }
}

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
        try await database.raw(
            """
            INSERT INTO tokens (token_hash, kind, client_id, email, bundle_id, team_id, scopes, auth_time, device, created_at, expires_at)
            VALUES (\(bind: Hashing.storageKey(token)), \(bind: record.kind.rawValue), \(bind: record.clientID), \(bind: record.email),
                    \(bind: record.bundleID), \(bind: record.teamID), \(bind: record.scopes.joined(separator: " ")),
                    \(bind: record.authTime?.timeIntervalSince1970), \(bind: record.device ? 1 : 0), \(bind: now.timeIntervalSince1970),
                    \(bind: record.expiresAt?.timeIntervalSince1970))
            """
        ).run()
    }

    static func find(_ token: String, in database: any SQLDatabase) async throws -> TokenRecord? {
        guard let row = try await database.raw("SELECT * FROM tokens WHERE token_hash = \(bind: Hashing.storageKey(token))").first() else { return nil }
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
            VALUES (\(bind: Hashing.storageKey(code)), \(bind: clientID), \(bind: redirectURI), \(bind: email), \(bind: bundleID),
                    \(bind: scopes.joined(separator: " ")), \(bind: nonce), \(bind: authTime.timeIntervalSince1970), \(bind: device ? 1 : 0),
                    \(bind: expiresAt.timeIntervalSince1970))
            """
        ).run()
    }

    static func find(_ code: String, in database: any SQLDatabase) async throws -> CodeRecord? {
        guard let row = try await database.raw("SELECT * FROM codes WHERE code_hash = \(bind: Hashing.storageKey(code))").first() else { return nil }
        return CodeRecord(
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

    static func markUsed(_ code: String, at now: Date, in database: any SQLDatabase) async throws {
        try await database.raw("UPDATE codes SET used_at = \(bind: now.timeIntervalSince1970) WHERE code_hash = \(bind: Hashing.storageKey(code))").run()
    }
}

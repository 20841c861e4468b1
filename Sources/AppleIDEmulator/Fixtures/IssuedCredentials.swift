import SQLKit

/// The authorization codes and tokens issued for one app, as the fixture API lists them (times in Unix
/// seconds; a time that has not happened, such as `used_at` of an unused code, is absent, as in the
/// other admin answers). Codes and tokens are stored only as SHA-256 digests, so they are listed by `digest`: a test
/// that holds a code or token compares its SHA-256 (lowercase hex); the values themselves are never shown.
struct IssuedCredentials: Sendable, Encodable {
    struct Code: Sendable, Codable {
        let digest: String
        let clientID: String
        let appleID: String
        let scopes: String
        let issuedAt: UnixSeconds
        let expiresAt: UnixSeconds
        let usedAt: UnixSeconds?
        let device: Int

        enum CodingKeys: String, CodingKey {
            case digest, scopes, device
            case clientID = "client_id"
            case appleID = "apple_id"
            case issuedAt = "issued_at"
            case expiresAt = "expires_at"
            case usedAt = "used_at"
        }

        static let columns: SQLQueryString = """
            code_hash AS digest, client_id, email AS apple_id, scopes, auth_time AS issued_at, expires_at, used_at, device
            """
    }

    struct Token: Sendable, Codable {
        let digest: String
        let kind: String
        let clientID: String
        let appleID: String?
        let scopes: String
        let issuedAt: UnixSeconds
        let expiresAt: UnixSeconds?
        let revokedAt: UnixSeconds?

        enum CodingKeys: String, CodingKey {
            case digest, kind, scopes
            case clientID = "client_id"
            case appleID = "apple_id"
            case issuedAt = "issued_at"
            case expiresAt = "expires_at"
            case revokedAt = "revoked_at"
        }

        static let columns: SQLQueryString = """
            token_hash AS digest, kind, client_id, email AS apple_id, scopes, created_at AS issued_at, expires_at, revoked_at
            """
    }

    let bundleID: String
    let codes: [Code]
    let tokens: [Token]

    enum CodingKeys: String, CodingKey {
        case codes, tokens
        case bundleID = "bundle_id"
    }

    /// Everything issued for the app `bundleID` (its bundle id and its Services IDs), oldest first.
    static func list(bundleID: String, in database: any SQLDatabase) async throws -> IssuedCredentials {
        let codes = try await database.raw("SELECT \(Code.columns) FROM codes WHERE bundle_id = \(bind: bundleID) ORDER BY auth_time, code_hash")
            .all(decoding: Code.self)
        let tokens = try await database.raw("SELECT \(Token.columns) FROM tokens WHERE bundle_id = \(bind: bundleID) ORDER BY created_at, token_hash")
            .all(decoding: Token.self)
        return IssuedCredentials(bundleID: bundleID, codes: codes, tokens: tokens)
    }
}

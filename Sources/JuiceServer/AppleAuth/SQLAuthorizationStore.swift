import Foundation
import SQLKit

/// ``AuthorizationStore`` on the `auth_requests` and `used_codes` tables.
public struct SQLAuthorizationStore: AuthorizationStore {
    private let database: any JuiceDatabase

    public init(database: any JuiceDatabase) {
        self.database = database
    }

    public func save(_ request: PendingAuthorization) async throws {
        try await database.transaction { sql in
            try await sql.insert(into: "auth_requests")
                .columns(
                    "state", "nonce", "purpose", "link_account_id", "replaces_session_id", "created_at", "expires_at", "relay_redirect_uri",
                    "relay_state"
                )
                .values(
                    SQLBind(request.state), SQLBind(request.nonce), SQLBind(request.purpose.rawValue), SQLBind(request.linkAccountID),
                    SQLBind(request.replacesSessionID), SQLBind(Int64(request.createdAt.timeIntervalSince1970)),
                    SQLBind(Int64(request.expiresAt.timeIntervalSince1970)), SQLBind(request.relayRedirectURI), SQLBind(request.relayState)
                )
                .run()
        }
    }

    public func consume(state: String, now: Date) async throws -> PendingAuthorization? {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.transaction { sql in
            // One statement: the row is gone for everyone else once this returns it.
            let row = try await sql.delete(from: "auth_requests").where("state", .equal, state)
                .returning(
                    "state", "nonce", "purpose", "link_account_id", "replaces_session_id", "created_at", "expires_at", "relay_redirect_uri",
                    "relay_state"
                )
                .first()
            guard let row else { return nil }
            let request = PendingAuthorization(
                state: try row.decode(column: "state", as: String.self),
                nonce: try row.decode(column: "nonce", as: String.self),
                purpose: .init(rawValue: try row.decode(column: "purpose", as: String.self)),
                linkAccountID: try row.decode(column: "link_account_id", as: String?.self),
                replacesSessionID: try row.decode(column: "replaces_session_id", as: String?.self),
                createdAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "created_at", as: Int64.self))),
                expiresAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "expires_at", as: Int64.self))),
                relayRedirectURI: try row.decode(column: "relay_redirect_uri", as: String?.self),
                relayState: try row.decode(column: "relay_state", as: String?.self)
            )
            return Int64(request.expiresAt.timeIntervalSince1970) > seconds ? request : nil
        }
    }

    public func claimCode(hash: String, now: Date) async throws -> Bool {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.transaction { sql in
            let inserted = try await sql.insert(into: "used_codes").columns("code_hash", "used_at")
                .values(SQLBind(hash), SQLBind(seconds))
                .ignoringConflicts(with: ["code_hash"])
                .returning("code_hash")
                .all()
            return !inserted.isEmpty
        }
    }

    @discardableResult
    public func purgeExpired(now: Date, codesBefore: Date) async throws -> Int {
        let seconds = Int64(now.timeIntervalSince1970)
        let codeSeconds = Int64(codesBefore.timeIntervalSince1970)
        return try await database.transaction { sql in
            let requests = try await sql.delete(from: "auth_requests").where("expires_at", .lessThanOrEqual, seconds).returning("state").all().count
            let codes = try await sql.delete(from: "used_codes").where("used_at", .lessThan, codeSeconds).returning("code_hash").all().count
            return requests + codes
        }
    }
}

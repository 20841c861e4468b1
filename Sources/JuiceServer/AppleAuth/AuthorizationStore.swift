import Foundation
import SQLKit

/// Single-use values of Sign in with Apple, enforced by the database (`auth_requests` and
/// `spent_values`): pending requests (`state` + `nonce`) are consumed by an atomic delete; authorization
/// codes and native nonces are spent by inserting their keys under a unique constraint (``SpentValues``).
struct AuthorizationStore {
    private let database: any JuiceDatabase
    private static let columns = [
        "state", "nonce", "purpose", "link_account_id", "replaces_session_id", "created_at", "expires_at", "relay_redirect_uri", "relay_state",
    ]

    init(database: any JuiceDatabase) {
        self.database = database
    }

    /// Saves a pending request.
    func save(_ request: PendingAuthorization) async throws {
        // One row shape for both purposes: `nonce` is empty for a native sign-in through the loopback bridge (its client
        // checks the nonce at /api/auth/apple), the bridge columns (`relay_*`, named before the bridge was) are NULL for a web sign-in.
        var nonce = "", kind = "web", linkAccountID: String?, replacesSessionID: String?, bridgeRedirectURI: String?, bridgeState: String?
        switch request.purpose {
        case .web(let webNonce, let link, let replaces):
            (nonce, linkAccountID, replacesSessionID) = (webNonce, link, replaces)
        case .loopbackBridge(let redirectURI, let state):
            (kind, bridgeRedirectURI, bridgeState) = ("native", redirectURI, state)
        }
        let row: [any Encodable & Sendable] = [
            request.state, nonce, kind, linkAccountID, replacesSessionID, Int64(request.createdAt.timeIntervalSince1970),
            Int64(request.expiresAt.timeIntervalSince1970), bridgeRedirectURI, bridgeState,
        ]
        try await database.autocommit { sql in
            try await sql.insert(into: "auth_requests").columns(Self.columns).values(row.map { SQLBind($0) }).run()
        }
    }

    /// Removes and returns the unexpired request for `state`; `nil` when unknown, expired or already
    /// consumed. Of two concurrent calls for one state, at most one gets it.
    func consume(state: String, now: Date) async throws -> PendingAuthorization? {
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.autocommit { sql in
            // One statement: the row is gone for everyone else once this returns it.
            let row = try await sql.delete(from: "auth_requests").where("state", .equal, state)
                .returning(Self.columns.map { SQLColumn($0) })
                .first()
            guard let row else { return nil }
            let purpose: PendingAuthorization.Purpose
            switch try row.decode(column: "purpose", as: String.self) {
            case "web":
                purpose = .web(
                    nonce: try row.decode(column: "nonce", as: String.self),
                    linkAccountID: try row.decode(column: "link_account_id", as: String?.self),
                    replacesSessionID: try row.decode(column: "replaces_session_id", as: String?.self)
                )
            case "native":
                guard let target = try row.decode(column: "relay_redirect_uri", as: String?.self) else { return nil }
                purpose = .loopbackBridge(bridgeRedirectURI: target, bridgeState: try row.decode(column: "relay_state", as: String?.self) ?? "")
            default:
                return nil
            }
            let request = PendingAuthorization(
                state: try row.decode(column: "state", as: String.self),
                purpose: purpose,
                createdAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "created_at", as: Int64.self))),
                expiresAt: Date(timeIntervalSince1970: TimeInterval(try row.decode(column: "expires_at", as: Int64.self)))
            )
            return Int64(request.expiresAt.timeIntervalSince1970) > seconds ? request : nil
        }
    }

    /// Spends single-use values by their ids in `spent_values` (a code's SHA-256 hex, ``NativeNonces/spentValueID(nonceHash:)``),
    /// all in one statement; returns the keys that had not been spent before. Of two concurrent calls
    /// for one key, at most one gets it back.
    func spend(_ keys: [String], at now: Date) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        let seconds = Int64(now.timeIntervalSince1970)
        return try await database.autocommit { sql in try await SpentValues.spend(keys, at: seconds, on: sql) }
    }

    /// Deletes expired requests and values spent before `spentBefore`; returns how many rows.
    @discardableResult
    func purgeExpired(now: Date, spentBefore: Date) async throws -> Int {
        let seconds = Int64(now.timeIntervalSince1970)
        let spentSeconds = Int64(spentBefore.timeIntervalSince1970)
        return try await database.transaction { sql in
            let requests = try await sql.delete(from: "auth_requests").where("expires_at", .lessThanOrEqual, seconds).returning("state").all().count
            let spent = try await sql.delete(from: "spent_values").where("spent_at", .lessThan, spentSeconds).returning("value_key").all().count
            return requests + spent
        }
    }
}

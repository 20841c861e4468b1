import JuiceEncodings
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Short-lived browser sessions: between the sign-in and consent pages (`authorize`), and in the
/// account portal (`portal`). Only digests of session ids are stored.
struct BrowserSessionStore: Sendable {
    enum Purpose: String, Sendable {
        case authorize
        case portal
    }

    struct Session: Sendable {
        let email: String
        let csrf: String
    }

    let store: EmulatorStore
    let random: EmulatorRandom
    let time: EmulatorTime

    /// How long a session lives.
    static let lifetime: TimeInterval = 600

    /// Starts a session; returns its id (to put in a hidden field or cookie) and its CSRF token.
    func create(_ purpose: Purpose, email: String, clientID: String? = nil) async throws -> (id: String, csrf: String) {
        let id = random.hex(bytes: 32)
        let csrf = random.hex(bytes: 16)
        let expiresAt = time.now.addingTimeInterval(purpose == .portal ? 3600 : Self.lifetime).timeIntervalSince1970
        try await store.transaction { database in
            try await database.raw(
                """
                INSERT INTO sessions (id_hash, purpose, email, client_id, csrf, expires_at)
                VALUES (\(bind: sha256Hex(id)), \(bind: purpose.rawValue), \(bind: email), \(bind: clientID), \(bind: csrf), \(bind: expiresAt))
                """
            ).run()
        }
        return (id, csrf)
    }

    /// The live session `id` of `purpose` (for `clientID` when given), or `nil`.
    func find(_ id: String, purpose: Purpose, clientID: String? = nil) async throws -> Session? {
        guard id.utf8.count == 64 else { return nil }
        let now = time.now.timeIntervalSince1970
        return try await store.transaction { database in
            guard
                let row = try await database.raw(
                    """
                    SELECT s.email, s.csrf, s.client_id FROM sessions s JOIN apple_ids a ON a.email = s.email
                    WHERE s.id_hash = \(bind: sha256Hex(id)) AND s.purpose = \(bind: purpose.rawValue)
                      AND s.expires_at > \(bind: now) AND a.deleted_at IS NULL
                    """
                ).first()
            else { return nil }
            if let clientID, try row.decode(column: "client_id", as: String?.self) != clientID { return nil }
            return Session(email: try row.decode(column: "email", as: String.self), csrf: try row.decode(column: "csrf", as: String.self))
        }
    }

    /// Ends a session.
    func delete(_ id: String) async throws {
        try await store.transaction { database in
            try await database.raw("DELETE FROM sessions WHERE id_hash = \(bind: sha256Hex(id))").run()
        }
    }
}

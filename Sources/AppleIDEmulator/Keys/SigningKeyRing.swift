import CryptoExtras
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The emulator's RSA-2048 signing keys, persisted in the store.
///
/// The key set always publishes at least two keys: the **active** key that signs, and a **standby**
/// key that is published ahead of use. Rotation makes the standby key active, publishes a fresh
/// standby, and keeps the previously active key published (**retiring**) for ``gracePeriod`` so
/// tokens already in flight still verify; after that it leaves the key set.
///
/// The active key is kept in memory once read (every token is signed with it) until ``rotate()``
/// replaces it: one emulator process owns its data directory.
actor SigningKeyRing {
    /// A key that can sign.
    struct ActiveKey: Sendable {
        let keyID: String
        let privateKey: _RSA.Signing.PrivateKey
        /// The base64url JWS header that names this key, encoded once (every token carries it).
        let encodedHeader: String

        init(keyID: String, privateKey: _RSA.Signing.PrivateKey) throws {
            self.keyID = keyID
            self.privateKey = privateKey
            self.encodedHeader = try JWSSigner.encodedHeader(keyID: keyID)
        }
    }

    private let store: EmulatorStore
    private let time: EmulatorTime
    private let random: EmulatorRandom
    /// How long a replaced key stays published.
    let gracePeriod: TimeInterval
    private var parsed: [String: _RSA.Signing.PrivateKey] = [:]
    /// The key that signs, once read; forgotten by ``rotate()`` (a read that overlapped a rotation is not kept).
    private let active = StoredValueCache<Role, ActiveKey>()

    /// The role a kept key has.
    private enum Role: Hashable, Sendable {
        case active
    }

    init(store: EmulatorStore, time: EmulatorTime, random: EmulatorRandom, gracePeriod: TimeInterval) {
        self.store = store
        self.time = time
        self.random = random
        self.gracePeriod = gracePeriod
    }

    /// Creates the active key when the store has none: what the emulator needs before it answers.
    /// The standby key comes after the server is ready (``prepareStandby()``), so a start on a new data
    /// directory generates one RSA key before its ready line instead of two.
    func prepare() async throws {
        let hasActive = try await store.read { database in
            try await database.raw("SELECT kid FROM signing_keys WHERE role = 'active' LIMIT 1").first() != nil
        }
        if !hasActive { try await insert(try random.signingKey(), role: "active") }
    }

    /// Creates the standby key when the store has none (after the ready line; ``rotate()`` also calls it).
    func prepareStandby() async throws {
        let hasStandby = try await store.read { database in
            try await database.raw("SELECT kid FROM signing_keys WHERE role = 'standby' LIMIT 1").first() != nil
        }
        if !hasStandby { try await insert(try random.signingKey(), role: "standby") }
    }

    private func insert(_ key: _RSA.Signing.PrivateKey, role: String) async throws {
        let kid = newKeyID()
        try await store.transaction { [now = time.now] database in
            // One per role, even when two callers got here at once (an actor's awaits interleave).
            try await database.raw(
                """
                INSERT INTO signing_keys (kid, private_pem, role, created_at) SELECT \(bind: kid), \(bind: key.pemRepresentation), \(bind: role), \(bind: now.timeIntervalSince1970)
                WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE role = \(bind: role))
                """
            ).run()
        }
    }

    /// The key that signs now.
    func activeKey() async throws -> ActiveKey {
        try await active.value(for: .active) {
            let row = try await store.read { database in
                try await database.raw("SELECT kid, private_pem FROM signing_keys WHERE role = 'active' ORDER BY created_at DESC LIMIT 1").first()
            }
            guard let row else { throw EmulatorInternalError("no active signing key") }
            let kid = try row.decode(column: "kid", as: String.self)
            return try ActiveKey(keyID: kid, privateKey: try privateKey(kid: kid, pem: row.decode(column: "private_pem", as: String.self)))
        }
    }

    /// The published key set (`/auth/keys`): active, standby, and retiring keys still in their grace period.
    func publishedKeys() async throws -> [JSONWebKey] {
        let now = time.now.timeIntervalSince1970
        let rows = try await store.transaction { database in
            try await database.raw("DELETE FROM signing_keys WHERE role = 'retiring' AND retire_at <= \(bind: now)").run()
            return try await database.raw(
                "SELECT kid, private_pem FROM signing_keys ORDER BY CASE role WHEN 'active' THEN 0 WHEN 'standby' THEN 1 ELSE 2 END, kid"
            ).all()
        }
        var keys: [JSONWebKey] = []
        for row in rows {
            let kid = try row.decode(column: "kid", as: String.self)
            let key = try privateKey(kid: kid, pem: row.decode(column: "private_pem", as: String.self))
            keys.append(try JSONWebKey(kid: kid, publicKey: key.publicKey))
        }
        return keys
    }

    /// Rotates: standby becomes active, the active key starts retiring, a new standby is published.
    /// - Returns: The id of the key that now signs.
    func rotate() async throws -> String {
        try await prepareStandby()
        let fresh = try random.signingKey()
        let freshID = newKeyID()
        let now = time.now.timeIntervalSince1970
        let retireAt = now + gracePeriod
        // After the transaction, whatever its outcome: a read that overlapped it may hold either key.
        defer { active.invalidate(.active) }
        return try await store.transaction { database in
            guard let standby = try await database.raw("SELECT kid FROM signing_keys WHERE role = 'standby' LIMIT 1").first() else {
                throw EmulatorInternalError("no standby signing key")
            }
            let standbyID = try standby.decode(column: "kid", as: String.self)
            try await database.raw("UPDATE signing_keys SET role = 'retiring', retire_at = \(bind: retireAt) WHERE role = 'active'").run()
            try await database.raw("UPDATE signing_keys SET role = 'active' WHERE kid = \(bind: standbyID)").run()
            try await database.raw(
                "INSERT INTO signing_keys (kid, private_pem, role, created_at) VALUES (\(bind: freshID), \(bind: fresh.pemRepresentation), 'standby', \(bind: now))"
            ).run()
            return standbyID
        }
    }

    private func privateKey(kid: String, pem: String) throws -> _RSA.Signing.PrivateKey {
        if let key = parsed[kid] { return key }
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        parsed[kid] = key
        return key
    }

    /// Apple's key ids are short mixed-case alphanumerics (e.g. `W6WcOKB`).
    private func newKeyID() -> String {
        random.string(length: 7, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    }
}

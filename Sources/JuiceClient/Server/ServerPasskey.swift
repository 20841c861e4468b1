/// A passkey of the signed-in account as the server lists it (`GET /api/passkeys`); never its key.
public struct ServerPasskey: Sendable, Hashable, Codable {
    /// The credential id, base64url.
    public var id: String
    /// The name the person gave it.
    public var name: String
    /// The provider the server names from the authenticator's AAGUID ("iCloud Keychain", "1Password",
    /// …; "Passkey" when unknown); `nil` from a server that does not say.
    public var provider: String?
    /// Its key's algorithm (`ES256`, `EdDSA`, `RS256`).
    public var algorithm: String
    /// When it was added (ISO 8601).
    public var createdAt: String
    /// When it last signed in (ISO 8601); `nil` before its first sign-in.
    public var lastUsedAt: String?
    /// Whether it may be synced to other devices (the BE flag).
    public var backupEligible: Bool
    /// Whether it is synced (the BS flag).
    public var backedUp: Bool

    /// A passkey with the given fields.
    public init(
        id: String, name: String, algorithm: String, createdAt: String, lastUsedAt: String? = nil, backupEligible: Bool = false,
        backedUp: Bool = false, provider: String? = nil
    ) {
        self.id = id
        self.name = name
        self.provider = provider
        self.algorithm = algorithm
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }
}

import Crypto
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Signs the ES256 client secrets Apple's REST endpoints require, caching each until shortly before expiry.
///
/// The secret is a JWT with header `{"alg":"ES256","kid":keyID}` and claims `iss` (team id), `iat`,
/// `exp` (at most 15,777,000 s — six months — later), `aud` (`https://appleid.apple.com`) and `sub`
/// (the client id it is sent with). Apple refuses a secret whose `sub` is another client id, so one
/// is kept per client id.
///
/// ```swift
/// let signer = try ClientSecretSigner(teamID: "ABCDE12345", keyID: "KEY1234567", privateKey: key)
/// let secret = try await signer.secret(for: "com.example.app.web")
/// ```
public actor ClientSecretSigner {
    /// The longest lifetime Apple accepts (six months).
    public static let maximumLifetime: TimeInterval = 15_777_000

    /// The team id (`iss`).
    public nonisolated let teamID: String
    /// The key id (`kid`).
    public nonisolated let keyID: String
    /// How long each secret lives.
    public nonisolated let lifetime: TimeInterval
    /// The audience (`aud`); Apple's is `https://appleid.apple.com`.
    public nonisolated let audience: String

    private let privateKey: P256.Signing.PrivateKey
    private let time: TimeSource
    private var cache: [String: ClientSecret] = [:]

    /// Creates a signer.
    /// - Parameters:
    ///   - teamID: The team id.
    ///   - keyID: The key id of `privateKey`.
    ///   - privateKey: The team's P-256 key.
    ///   - lifetime: Seconds each secret lives: more than 60, at most ``maximumLifetime``. One hour by default.
    ///   - audience: The `aud` claim.
    ///   - time: The clock.
    /// - Throws: ``ClientSecretError`` for a lifetime out of range.
    public init(
        teamID: String,
        keyID: String,
        privateKey: P256.Signing.PrivateKey,
        lifetime: TimeInterval = 3600,
        audience: String = AppleSignInConfiguration.appleIssuer,
        time: TimeSource = .system
    ) throws(ClientSecretError) {
        // Written so that NaN fails both comparisons; the messages never convert the asked value to an integer.
        guard lifetime <= Self.maximumLifetime else {
            throw ClientSecretError(.lifetimeTooLong, "a client secret may live at most 15777000 s (six months); \(lifetime) s was asked")
        }
        guard lifetime > 60 else {
            throw ClientSecretError(.lifetimeTooShort, "a client secret must live more than 60 s; \(lifetime) s was asked")
        }
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
        self.lifetime = lifetime
        self.audience = audience
        self.time = time
    }

    /// Creates a signer from a configuration.
    public init(configuration: AppleSignInConfiguration, lifetime: TimeInterval = 3600, time: TimeSource = .system) throws(ClientSecretError) {
        try self.init(
            teamID: configuration.teamID,
            keyID: configuration.keyID,
            privateKey: configuration.privateKey,
            lifetime: lifetime,
            time: time
        )
    }

    /// A valid secret for `clientID`: the cached one, or a new one when less than a tenth of its lifetime
    /// (at least a minute) is left.
    public func secret(for clientID: String) throws(ClientSecretError) -> ClientSecret {
        let now = time.now
        let margin = max(60, lifetime / 10)
        if let cached = cache[clientID], cached.expiresAt.timeIntervalSince(now) > margin {
            return cached
        }
        let secret = try sign(for: clientID, at: now)
        cache[clientID] = secret
        return secret
    }

    private func sign(for clientID: String, at now: Date) throws(ClientSecretError) -> ClientSecret {
        let issuedAt = Int64(now.timeIntervalSince1970)
        let expiresAt = issuedAt + Int64(lifetime)
        let header: JSONValue = .object(["alg": .string("ES256"), "kid": .string(keyID)])
        let claims: JSONValue = .object([
            "iss": .string(teamID),
            "iat": .integer(issuedAt),
            "exp": .integer(expiresAt),
            "aud": .string(audience),
            "sub": .string(clientID),
        ])
        let signingInput = Base64URL.encode(Array(header.jsonString().utf8)) + "." + Base64URL.encode(Array(claims.jsonString().utf8))
        // swift-crypto's ECDSA signature's rawRepresentation is R‖S (64 bytes), which JWS requires.
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try privateKey.signature(for: Array(signingInput.utf8))
        } catch {
            throw ClientSecretError(.signingFailed, "the team key could not sign the client secret")
        }
        return ClientSecret(
            jwt: signingInput + "." + Base64URL.encode(signature.rawRepresentation),
            clientID: clientID,
            issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(expiresAt))
        )
    }
}

import Crypto
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Checks a `client_secret` the way Apple does, with the emulator's own code: an ES256 JWT with a raw
/// R‖S signature by a registered key of the client's team, naming that key in `kid`, with `iss` = the
/// team id, `sub` = the client id, `aud` = Apple's issuer, and an `exp` that has not passed and is at
/// most six months away. Any failure is `invalid_client`, with a description that never echoes the secret.
struct ClientSecretValidator: Sendable {
    /// The longest lifetime Apple accepts: 15,777,000 s (six months).
    static let maximumLifetime: TimeInterval = 15_777_000
    /// Clock skew tolerated for `iat`.
    static let clockSkew: TimeInterval = 60
    /// The longest secret accepted.
    static let maximumLength = 4096

    let directory: ClientDirectory
    let address: EmulatorAddress
    let time: EmulatorTime

    /// Validates `secret` for `clientID`.
    /// - Parameter allowPreviousTeam: Accept the previous owner's keys for a transferred app during the
    ///   transfer window (the sending team's `user.migration` calls).
    /// - Returns: The client and the team whose key signed the secret.
    func validate(secret: String?, clientID: String?, allowPreviousTeam: Bool = false) async throws -> (RegisteredClient, teamID: String) {
        guard let clientID, !clientID.isEmpty else { throw OAuthError.invalidRequest("client_id is required") }
        guard let client = try await directory.client(clientID) else {
            throw OAuthError.invalidClient("client_id is not a registered bundle id or Services ID")
        }
        guard let secret, !secret.isEmpty else { throw OAuthError.invalidClient("client_secret is required") }
        guard secret.utf8.count <= Self.maximumLength else { throw OAuthError.invalidClient("client_secret is too long") }
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signatureBytes = Base64URL.decode(parts[2])
        else {
            throw OAuthError.invalidClient("client_secret is not a compact JWS")
        }
        guard let header = try? JSONDecoder().decode(SecretHeader.self, from: Data(headerBytes)),
            let claims = try? JSONDecoder().decode(SecretClaims.self, from: Data(claimBytes))
        else {
            throw OAuthError.invalidClient("client_secret header or claims are not JSON objects")
        }
        guard header.alg == "ES256" else { throw OAuthError.invalidClient("client_secret must be signed with ES256") }
        guard let keyID = header.kid, !keyID.isEmpty else { throw OAuthError.invalidClient("client_secret has no kid") }
        guard let issuer = claims.iss else { throw OAuthError.invalidClient("client_secret has no iss (team id)") }

        let now = time.now
        var teams = [client.teamID]
        if allowPreviousTeam, client.isInTransferWindow(at: now), let previous = client.previousTeamID { teams.append(previous) }
        guard teams.contains(issuer) else {
            throw OAuthError.invalidClient("client_secret iss is not the team that owns \(client.clientID)")
        }
        guard let key = directory.teamKey(teamID: issuer, keyID: keyID) else {
            throw OAuthError.invalidClient("client_secret kid is not a registered key of team \(issuer)")
        }
        // JWS ES256 signatures are the raw 64-byte R‖S concatenation, not DER.
        guard signatureBytes.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else {
            throw OAuthError.invalidClient("client_secret signature does not verify with key \(keyID)")
        }
        guard claims.sub == client.clientID else {
            throw OAuthError.invalidClient("client_secret sub must be the client_id it is sent with")
        }
        guard !Self.acceptedAudiences(address: address).isDisjoint(with: claims.aud) else {
            throw OAuthError.invalidClient("client_secret aud must be https://appleid.apple.com")
        }
        guard let expiry = claims.exp else { throw OAuthError.invalidClient("client_secret has no numeric exp") }
        guard expiry > now.timeIntervalSince1970 else { throw OAuthError.invalidClient("client_secret has expired") }
        guard expiry <= now.timeIntervalSince1970 + Self.maximumLifetime + Self.clockSkew else {
            throw OAuthError.invalidClient("client_secret exp is more than six months away")
        }
        guard let issuedAt = claims.iat else { throw OAuthError.invalidClient("client_secret has no numeric iat") }
        guard issuedAt <= now.timeIntervalSince1970 + Self.clockSkew else { throw OAuthError.invalidClient("client_secret iat is in the future") }
        guard expiry - issuedAt <= Self.maximumLifetime else {
            throw OAuthError.invalidClient("client_secret lives longer than six months (exp - iat > 15777000)")
        }
        return (client, issuer)
    }

    static func acceptedAudiences(address: EmulatorAddress) -> Set<String> {
        ["https://appleid.apple.com", address.issuer, address.baseURL]
    }
}

/// A client secret's header; fields of the wrong type read as missing.
private struct SecretHeader: Decodable {
    let alg: String?
    let kid: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        alg = try? container.decodeIfPresent(String.self, forKey: JSONKey("alg"))
        kid = try? container.decodeIfPresent(String.self, forKey: JSONKey("kid"))
    }
}

/// A client secret's claims; fields of the wrong type read as missing, `aud` may be a string or a list.
private struct SecretClaims: Decodable {
    let iss: String?
    let sub: String?
    let aud: [String]
    let exp: Double?
    let iat: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        iss = try? container.decodeIfPresent(String.self, forKey: JSONKey("iss"))
        sub = try? container.decodeIfPresent(String.self, forKey: JSONKey("sub"))
        exp = try? container.decodeIfPresent(Double.self, forKey: JSONKey("exp"))
        iat = try? container.decodeIfPresent(Double.self, forKey: JSONKey("iat"))
        if let single = try? container.decodeIfPresent(String.self, forKey: JSONKey("aud")) {
            aud = [single]
        } else {
            aud = (try? container.decodeIfPresent([String].self, forKey: JSONKey("aud"))) ?? []
        }
    }
}

/// A coding key for any JSON member name.
struct JSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

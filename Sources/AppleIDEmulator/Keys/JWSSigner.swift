import CryptoExtras
import Foundation
import JuiceEncodings

/// Builds RS256 compact JWS tokens (identity tokens, notifications) with the active signing key.
struct JWSSigner: Sendable {
    let keys: SigningKeyRing

    /// Signs `claims` with the active key; the header names its `kid`.
    func sign(_ claims: some Encodable) async throws -> String {
        let key = try await keys.activeKey()
        return try Self.sign(claims, keyID: key.keyID, privateKey: key.privateKey)
    }

    static func sign(_ claims: some Encodable, keyID: String, privateKey: _RSA.Signing.PrivateKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(["alg": "RS256", "kid": keyID])
        let payload = try encoder.encode(claims)
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        // RS256 is RSASSA-PKCS1-v1_5 with SHA-256; swift-crypto defaults to PSS, so the padding is explicit.
        let signature = try privateKey.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}

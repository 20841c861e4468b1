import CryptoExtras
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds RS256 compact JWS tokens (identity tokens, notifications) with the active signing key.
struct JWSSigner: Sendable {
    let keys: SigningKeyRing

    /// Signs `claims` with the active key; the header names its `kid`.
    func sign(_ claims: some Encodable) async throws -> String {
        let key = try await keys.activeKey()
        return try Self.sign(claims, encodedHeader: key.encodedHeader, privateKey: key.privateKey)
    }

    static func sign(_ claims: some Encodable, keyID: String, privateKey: _RSA.Signing.PrivateKey) throws -> String {
        try sign(claims, encodedHeader: encodedHeader(keyID: keyID), privateKey: privateKey)
    }

    /// The base64url of `{"alg":"RS256","kid":…}`.
    static func encodedHeader(keyID: String) throws -> String {
        Base64URL.encode(try encoder().encode(["alg": "RS256", "kid": keyID]))
    }

    private static func sign(_ claims: some Encodable, encodedHeader: String, privateKey: _RSA.Signing.PrivateKey) throws -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(try encoder().encode(claims))
        // RS256 is RSASSA-PKCS1-v1_5 with SHA-256; swift-crypto defaults to PSS, so the padding is explicit.
        let signature = try privateKey.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

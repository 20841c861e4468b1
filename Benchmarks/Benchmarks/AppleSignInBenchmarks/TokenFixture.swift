import AppleSignIn
import Crypto
import CryptoExtras
import Foundation

/// An Apple-shaped identity token (RS256, 2048-bit key made at setup), its key set and a verifier
/// that accepts it: what `juice bench verify` measures, through the public API only.
struct TokenFixture: Sendable {
    let token: String
    let nonce = "a1c3d5e7f9b2d4f6a8c0e2a4c6e8a0b2d4f6a8c0e2a4c6e8a0b2d4f6a8c0e2a4"
    let code = "c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.0.nrsz.KqsrMl3Fz1eVUmaWsN2nCw"
    let verifier: IdentityTokenVerifier

    init() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let now = Date()
        let iat = Int64(now.timeIntervalSince1970)
        let header = #"{"kid":"W6WcOKB","alg":"RS256"}"#
        let codeHash = Self.base64URL(Data(SHA256.hash(data: Data(code.utf8)).prefix(16)))
        let payload = """
            {"iss":"https://appleid.apple.com","aud":"com.example.apple-samplecode.juice","exp":\(iat + 86_400),"iat":\(iat),\
            "sub":"001872.a22fc8cc2d0a4d0bacaf109007e19351.0650","nonce":"\(nonce)","c_hash":"\(codeHash)",\
            "email":"x7k2m9q4pd@privaterelay.appleid.com","email_verified":"true","is_private_email":"true",\
            "auth_time":\(iat),"nonce_supported":true,"real_user_status":2}
            """
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(payload.utf8))
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        token = input + "." + Self.base64URL(signature.rawRepresentation)
        let primitives = try key.publicKey.getKeyPrimitives()
        let jwks =
            #"{"keys":[{"kty":"RSA","kid":"W6WcOKB","use":"sig","alg":"RS256","n":"\#(Self.base64URL(primitives.modulus))","e":"\#(Self.base64URL(primitives.publicExponent))"}]}"#
        let keys = AppleKeySet(source: StaticAppleKeySource(keySet: try JSONWebKeySet(jwks: Data(jwks.utf8))))
        verifier = IdentityTokenVerifier(keys: keys, audiences: ["com.example.apple-samplecode.juice"], time: .fixed(now))
        // The first verification fetches the key set; the measurement starts with it cached.
        _ = try await verifier.verify(token, nonce: nonce, authorizationCode: code)
    }

    /// Base64url without padding (the toolkit's own encoder is internal to the root package).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

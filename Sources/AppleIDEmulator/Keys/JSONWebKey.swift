import CryptoExtras
import JuiceEncodings

/// One entry of `/auth/keys`, in Apple's shape.
struct JSONWebKey: Sendable, Hashable, Codable {
    var kty = "RSA"
    let kid: String
    var use = "sig"
    var alg = "RS256"
    let n: String
    let e: String
}

extension JSONWebKey {
    /// The published form of an RSA public key (`n` and `e` base64url, as Apple's `/auth/keys` shows them).
    init(kid: String, publicKey: _RSA.Signing.PublicKey) throws {
        let primitives = try publicKey.getKeyPrimitives()
        self.init(kid: kid, n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
    }
}

import Crypto
import CryptoExtras
import Foundation
import JuiceEncodings

@testable import AppleSignIn

/// Makes JWTs at test time — genuine ones and every kind of forgery.
enum TokenForge {
    static let issuer = "https://appleid.apple.com"
    static let audience = "com.example.apple-samplecode.juice"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let code = "c6b1e0f4a8d24a7b9c3e5f7a1b2c4d6e8.0.rrsv.Xk3LwQmZp9TfR2hYbN7cVg"
    static let nonce = "4b1f0f8c0d7e4e4a9f3a6c2b8d1e7f5a3c9b0d2e4f6a8c1e3b5d7f9a0c2e4b6d"

    /// Claims shaped like a real Apple identity token from a web sign-in.
    static func appleClaims(now: Date = now) -> [String: JSONValue] {
        let iat = Int64(now.timeIntervalSince1970)
        return [
            "iss": .string(issuer),
            "aud": .string(audience),
            "exp": .integer(iat + 86_400),
            "iat": .integer(iat),
            "sub": .string("001872.a22fc8cc2d0a4d0bacaf109007e19351.0650"),
            "nonce": .string(nonce),
            "c_hash": .string(CodeHashRule.hash(of: code)),
            "email": .string("x7k2m9q4pd@privaterelay.appleid.com"),
            "email_verified": .string("true"),
            "is_private_email": .string("true"),
            "auth_time": .integer(iat),
            "nonce_supported": .bool(true),
        ]
    }

    static func segment(_ value: JSONValue) -> String {
        Base64URL.encode(Array(value.jsonString().utf8))
    }

    /// An RS256 token signed by `key` with header `kid`.
    static func rs256(
        _ claims: [String: JSONValue], key: _RSA.Signing.PrivateKey = TestKeys.appleA, kid: String? = "A", extraHeader: [String: JSONValue] = [:]
    ) -> String {
        var header: [String: JSONValue] = ["alg": .string("RS256")]
        if let kid { header["kid"] = .string(kid) }
        header.merge(extraHeader) { $1 }
        let input = segment(.object(header)) + "." + segment(.object(claims))
        let signature = try! key.signature(for: SHA256.hash(data: Array(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// A token claiming `alg` with an arbitrary signature.
    static func unsigned(_ claims: [String: JSONValue], alg: String, kid: String = "A", signature: [UInt8] = []) -> String {
        segment(.object(["alg": .string(alg), "kid": .string(kid)])) + "." + segment(.object(claims)) + "." + Base64URL.encode(signature)
    }

    /// The classic key-confusion forgery: HS256 with Apple's *public* key as the HMAC secret.
    static func hs256WithPublicKey(_ claims: [String: JSONValue], publicKey: _RSA.Signing.PublicKey) -> String {
        let input = segment(.object(["alg": .string("HS256"), "kid": .string("A")])) + "." + segment(.object(claims))
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: Array(publicKey.pemRepresentation.utf8)))
        return input + "." + Base64URL.encode(Array(mac))
    }

    /// An ES256 token signed by a P-256 key.
    static func es256(_ claims: [String: JSONValue], key: P256.Signing.PrivateKey = TestKeys.team) -> String {
        let input = segment(.object(["alg": .string("ES256"), "kid": .string("A")])) + "." + segment(.object(claims))
        let signature = try! key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// `token` with its payload replaced by `claims`, keeping header and signature.
    static func tampered(_ token: String, claims: [String: JSONValue]) -> String {
        let parts = token.split(separator: ".")
        return parts[0] + "." + segment(.object(claims)) + "." + parts[2]
    }
}

import Crypto
import CryptoExtras
import Foundation
import JuiceEncodings

@testable import AppleSignIn

/// RSA and P-256 keys generated at test time (once per process: RSA generation is slow).
enum TestKeys {
    static let appleA = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let appleB = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let attacker = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let team = P256.Signing.PrivateKey()
    static let otherTeam = P256.Signing.PrivateKey()

    /// A JWK for `key` under `kid`.
    static func jwk(_ key: _RSA.Signing.PrivateKey, kid: String, alg: String? = "RS256", use: String? = "sig", kty: String = "RSA") -> JSONValue {
        let primitives = try! key.publicKey.getKeyPrimitives()
        var object: [String: JSONValue] = [
            "kty": .string(kty), "kid": .string(kid),
            "n": .string(Base64URL.encode(primitives.modulus)), "e": .string(Base64URL.encode(primitives.publicExponent)),
        ]
        if let alg { object["alg"] = .string(alg) }
        if let use { object["use"] = .string(use) }
        return .object(object)
    }

    /// A JWKS document with the given keys.
    static func jwks(_ keys: [(kid: String, key: _RSA.Signing.PrivateKey)]) -> String {
        JSONValue.object(["keys": .array(keys.map { jwk($0.key, kid: $0.kid) })]).jsonString()
    }

    /// A key set holding `appleA` as "A" and `appleB` as "B", served without HTTP.
    static func staticKeySet(time: TimeSource = .system) throws -> AppleKeySet {
        let document = jwks([("A", appleA), ("B", appleB)])
        return AppleKeySet(source: StaticAppleKeySource(keySet: try JSONWebKeySet(jwks: Array(document.utf8))), time: time)
    }
}

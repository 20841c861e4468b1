import CryptoExtras
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The RS256 signing keys of a JWKS document, by key id.
///
/// Only keys with `kty` `RSA`, `alg` `RS256` (or no `alg`), `use` `sig` (or no `use`) and a modulus of
/// at least 2048 bits are kept; anything else in the document is skipped, never trusted.
public struct JSONWebKeySet: Sendable {
    /// The usable keys, by `kid`.
    let keys: [String: _RSA.Signing.PublicKey]

    /// The key ids of the usable keys, sorted.
    public var keyIDs: [String] { keys.keys.sorted() }

    /// Parses a JWKS document (`{"keys": [...]}`).
    ///
    /// - Throws: ``KeySetError`` when the document is not a JWKS or holds no usable RS256 key.
    public init(jwks data: some Collection<UInt8>) throws(KeySetError) {
        guard let document = try? JSONParser.parse(Array(data)), case .array(let entries)? = document["keys"] else {
            throw KeySetError(.malformed, "the key set is not a JSON object with a \"keys\" array")
        }
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for entry in entries {
            guard entry["kty"]?.stringValue == "RSA",
                entry["alg"].map({ $0.stringValue == "RS256" }) ?? true,
                entry["use"].map({ $0.stringValue == "sig" }) ?? true,
                let kid = entry["kid"]?.stringValue, !kid.isEmpty,
                let modulus = entry["n"]?.stringValue.flatMap(Base64URL.decode),
                let exponent = entry["e"]?.stringValue.flatMap(Base64URL.decode),
                let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent),
                key.keySizeInBits >= 2048
            else { continue }
            keys[kid] = key
        }
        guard !keys.isEmpty else {
            throw KeySetError(.noUsableKey, "the key set holds no RSA RS256 signing key")
        }
        self.keys = keys
    }

    init(keys: [String: _RSA.Signing.PublicKey]) {
        self.keys = keys
    }
}

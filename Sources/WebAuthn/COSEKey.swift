import Crypto
import CryptoExtras

/// A credential public key read from its COSE_Key encoding (RFC 9052/9053, WebAuthn §5.8.5): EC2 P-256
/// for ES256, RSA for RS256 and OKP Ed25519 for EdDSA. The key's fields must agree with its `alg`;
/// anything else is refused.
package struct COSEKey: Sendable {
    package enum Key: Sendable {
        case es256(P256.Signing.PublicKey)
        case rs256(_RSA.Signing.PublicKey)
        case edDSA(Curve25519.Signing.PublicKey)
    }

    /// The key.
    package let key: Key

    /// The key's algorithm.
    package var algorithm: COSEAlgorithm {
        switch key {
        case .es256: .es256
        case .rs256: .rs256
        case .edDSA: .edDSA
        }
    }

    /// A key already read (e.g. from an attestation certificate).
    package init(key: Key) {
        self.key = key
    }

    /// Reads a key from the COSE_Key map `value`.
    package init(_ value: CBORValue) throws(PasskeyError) {
        guard case .map = value else { throw Self.malformed("the key is not a CBOR map") }
        guard let keyType = value[intKey: 1]?.intValue else { throw Self.malformed("the key has no integer kty (1)") }
        guard let number = value[intKey: 3]?.intValue else { throw Self.malformed("the key has no integer alg (3)") }
        guard let algorithm = COSEAlgorithm(rawValue: number) else {
            throw PasskeyError(.unsupportedAlgorithm, "COSE algorithm \(number) is not ES256, RS256 or EdDSA")
        }
        switch algorithm {
        case .es256:
            guard keyType == 2 else { throw Self.malformed("an ES256 key's kty is \(keyType), not EC2 (2)") }
            guard value[intKey: -1]?.intValue == 1 else { throw Self.malformed("an ES256 key's curve is not P-256 (1)") }
            let x = try Self.bytes(value, -2, count: 32, "x")
            let y = try Self.bytes(value, -3, count: 32, "y")
            do {
                key = .es256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            } catch {
                throw Self.malformed("the ES256 key is not a point on P-256")
            }
        case .edDSA:
            guard keyType == 1 else { throw Self.malformed("an EdDSA key's kty is \(keyType), not OKP (1)") }
            guard value[intKey: -1]?.intValue == 6 else { throw Self.malformed("an EdDSA key's curve is not Ed25519 (6)") }
            let x = try Self.bytes(value, -2, count: 32, "x")
            do {
                key = .edDSA(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            } catch {
                throw Self.malformed("the EdDSA key is not an Ed25519 key")
            }
        case .rs256:
            guard keyType == 3 else { throw Self.malformed("an RS256 key's kty is \(keyType), not RSA (3)") }
            guard case .bytes(let modulus) = value[intKey: -1], case .bytes(let exponent) = value[intKey: -2] else {
                throw Self.malformed("an RS256 key lacks its modulus (-1) or exponent (-2)")
            }
            guard (256...512).contains(modulus.count), modulus.first != 0 else {
                throw Self.malformed("an RS256 key's modulus is \(modulus.count) bytes, not 2048 to 4096 bits")
            }
            guard (1...4).contains(exponent.count) else { throw Self.malformed("an RS256 key's exponent is \(exponent.count) bytes") }
            do {
                key = .rs256(try _RSA.Signing.PublicKey(n: modulus, e: exponent))
            } catch {
                throw Self.malformed("the RS256 key is not an RSA key of 2048 bits or more")
            }
        }
    }

    /// Reads a key from its CBOR encoding, which must be one item with nothing after it.
    package init(encoded: [UInt8]) throws(PasskeyError) {
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(encoded)
        } catch {
            throw .malformedCBOR(error, in: "the credential public key")
        }
        try self.init(value)
    }

    /// Whether `signature` (as WebAuthn carries it for the algorithm: DER for ES256, raw for RS256 and
    /// EdDSA) signs `message`.
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch key {
        case .es256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: message)
        case .rs256(let key):
            guard signature.count == key.keySizeInBits / 8 else { return false }
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        case .edDSA(let key):
            return key.isValidSignature(signature, for: message)
        }
    }

    private static func bytes(_ map: CBORValue, _ label: Int, count: Int, _ name: String) throws(PasskeyError) -> [UInt8] {
        guard case .bytes(let bytes) = map[intKey: label], bytes.count == count else {
            throw malformed("the key's \(name) (\(label)) is not \(count) bytes")
        }
        return bytes
    }

    private static func malformed(_ reason: String) -> PasskeyError { PasskeyError(.malformedPublicKey, reason) }
}

import Crypto
import CryptoExtras
import SwiftASN1
import X509

/// Verifies a `packed` attestation statement (WebAuthn §8.2): self attestation with the credential
/// key, or a certificate chain whose leaf signed it and meets §8.2.1.
package enum PackedAttestation {
    /// The OID of the FIDO extension that carries the authenticator's AAGUID in its certificate.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    package static func verify(
        _ statement: CBORValue, authenticatorData: AuthenticatorData, clientDataHash: [UInt8], credential: AuthenticatorData.AttestedCredential
    ) throws(PasskeyError) -> AttestationType {
        guard case .map(let entries) = statement,
            entries.allSatisfy({ [.text("alg"), .text("sig"), .text("x5c")].contains($0.key) }),
            let number = statement[textKey: "alg"]?.intValue,
            case .bytes(let signature) = statement[textKey: "sig"]
        else {
            throw bad("the statement is not a map of an integer alg, a byte-string sig and an optional x5c")
        }
        guard let algorithm = COSEAlgorithm(rawValue: number) else {
            throw PasskeyError(.unsupportedAlgorithm, "the attestation's algorithm \(number) is not ES256, RS256 or EdDSA")
        }
        let signed = authenticatorData.bytes + clientDataHash
        guard let chain = statement[textKey: "x5c"] else {
            guard algorithm == credential.publicKey.algorithm else {
                throw bad("self attestation with \(algorithm.name) for a \(credential.publicKey.algorithm.name) key")
            }
            guard credential.publicKey.isValidSignature(signature, for: signed) else {
                throw bad("the self attestation's signature does not verify with the credential key")
            }
            return .self
        }
        guard case .array(let certificates) = chain, case .bytes(let leafBytes)? = certificates.first,
            certificates.allSatisfy({ if case .bytes = $0 { true } else { false } })
        else {
            throw bad("x5c is not a non-empty array of certificates")
        }
        let leaf: Certificate
        do {
            leaf = try Certificate(derEncoded: leafBytes)
        } catch {
            throw bad("the attestation certificate is not DER X.509")
        }
        try checkLeaf(leaf, aaguid: credential.aaguid)
        guard isValid(signature, for: signed, by: leaf.publicKey, algorithm: algorithm) else {
            throw bad("the attestation signature does not verify with the certificate's \(algorithm.name) key")
        }
        return .basic
    }

    /// The rules of §8.2.1 for the leaf certificate.
    static func checkLeaf(_ leaf: Certificate, aaguid: [UInt8]) throws(PasskeyError) {
        guard leaf.version == .v3 else { throw bad("the attestation certificate is not version 3") }
        func attribute(_ type: ASN1ObjectIdentifier) -> String? {
            leaf.subject.lazy.flatMap { $0 }.first { $0.type == type }.flatMap { String($0.value) }
        }
        guard attribute(.RDNAttributeType.organizationalUnitName) == "Authenticator Attestation" else {
            throw bad("the attestation certificate's subject OU is not \"Authenticator Attestation\"")
        }
        let required: [(ASN1ObjectIdentifier, String)] = [
            (.RDNAttributeType.countryName, "C"), (.RDNAttributeType.organizationName, "O"), (.RDNAttributeType.commonName, "CN"),
        ]
        for (type, name) in required where (attribute(type) ?? "").isEmpty {
            throw bad("the attestation certificate's subject has no \(name)")
        }
        let constraints: BasicConstraints?
        do {
            constraints = try leaf.extensions.basicConstraints
        } catch {
            throw bad("the attestation certificate's basic constraints are malformed")
        }
        guard case .notCertificateAuthority? = constraints else {
            throw bad("the attestation certificate does not say CA false in its basic constraints")
        }
        if let fido = leaf.extensions[oid: aaguidExtension] {
            guard !fido.critical else { throw bad("the certificate's AAGUID extension is critical") }
            let inner: ASN1OctetString
            do {
                inner = try ASN1OctetString(derEncoded: fido.value)
            } catch {
                throw bad("the certificate's AAGUID extension is not an octet string")
            }
            guard Array(inner.bytes) == aaguid else { throw bad("the certificate's AAGUID is not the authenticator data's") }
        }
    }

    /// Whether `signature` by the certificate key of the kind `algorithm` names signs `message`.
    static func isValid(_ signature: [UInt8], for message: [UInt8], by key: Certificate.PublicKey, algorithm: COSEAlgorithm) -> Bool {
        let read: COSEKey.Key? =
            switch algorithm {
            case .es256: P256.Signing.PublicKey(key).map { .es256($0) }
            case .rs256: _RSA.Signing.PublicKey(key).map { .rs256($0) }
            case .edDSA: Curve25519.Signing.PublicKey(key).map { .edDSA($0) }
            }
        guard let read else { return false }
        return COSEKey(key: read).isValidSignature(signature, for: message)
    }

    private static func bad(_ reason: String) -> PasskeyError { PasskeyError(.badAttestation, "packed: \(reason)") }
}

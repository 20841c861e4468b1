import Crypto
import CryptoExtras
import SwiftASN1
import X509

/// A `packed` attestation with a certificate chain: the leaf must meet every ``AttestationCertificateRule``
/// (WebAuthn §8.2.1) and its key must have signed the authenticator data and the client data's hash. The
/// chain is not checked against a vendor root (no FIDO metadata offline).
struct PackedCertificateAttestationRule: PasskeyRule {
    /// §8.2.1's requirements of the leaf certificate, in order.
    static let certificateRules: [any AttestationCertificateRule] = [
        CertificateVersionRule(), CertificateSubjectRule(), CertificateBasicConstraintsRule(), CertificateAAGUIDRule(),
    ]

    func check(_ evidence: RegistrationEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard let statement = try PackedStatement.of(evidence), let der = statement.leafCertificate else { return }
        let leaf: Certificate
        do {
            leaf = try Certificate(derEncoded: der)
        } catch {
            throw PackedStatement.bad("the attestation certificate is not DER X.509")
        }
        for rule in Self.certificateRules { try rule.check(leaf, attesting: evidence.credential) }
        let signed = evidence.authenticatorData.bytes + evidence.clientDataHash
        guard Self.isValid(statement.signature, for: signed, by: leaf.publicKey, algorithm: statement.algorithm) else {
            throw PackedStatement.bad("the attestation signature does not verify with the certificate's \(statement.algorithm.name) key")
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
}

import SwiftASN1
import X509

/// When the attestation certificate carries FIDO's AAGUID extension (1.3.6.1.4.1.45724.1.1.4), it must not
/// be critical and must name the authenticator data's AAGUID.
struct CertificateAAGUIDRule: AttestationCertificateRule {
    /// The OID of the FIDO extension that carries the authenticator's AAGUID in its certificate.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    func check(_ leaf: Certificate, attesting credential: AuthenticatorData.AttestedCredential) throws(PasskeyError) {
        guard let fido = leaf.extensions[oid: Self.aaguidExtension] else { return }
        guard !fido.critical else { throw PackedStatement.bad("the certificate's AAGUID extension is critical") }
        let inner: ASN1OctetString
        do {
            inner = try ASN1OctetString(derEncoded: fido.value)
        } catch {
            throw PackedStatement.bad("the certificate's AAGUID extension is not an octet string")
        }
        guard Array(inner.bytes) == credential.aaguid else { throw PackedStatement.bad("the certificate's AAGUID is not the authenticator data's") }
    }
}

import SwiftASN1
import X509

/// The attestation certificate's subject must have OU "Authenticator Attestation" and a C, an O and a CN.
struct CertificateSubjectRule: AttestationCertificateRule {
    func check(_ leaf: Certificate, attesting credential: AuthenticatorData.AttestedCredential) throws(PasskeyError) {
        func attribute(_ type: ASN1ObjectIdentifier) -> String? {
            leaf.subject.lazy.flatMap { $0 }.first { $0.type == type }.flatMap { String($0.value) }
        }
        guard attribute(.RDNAttributeType.organizationalUnitName) == "Authenticator Attestation" else {
            throw PackedStatement.bad("the attestation certificate's subject OU is not \"Authenticator Attestation\"")
        }
        let required: [(ASN1ObjectIdentifier, String)] = [
            (.RDNAttributeType.countryName, "C"), (.RDNAttributeType.organizationName, "O"), (.RDNAttributeType.commonName, "CN"),
        ]
        for (type, name) in required where (attribute(type) ?? "").isEmpty {
            throw PackedStatement.bad("the attestation certificate's subject has no \(name)")
        }
    }
}

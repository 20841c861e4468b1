import X509

/// The attestation certificate must be X.509 version 3.
struct CertificateVersionRule: AttestationCertificateRule {
    func check(_ leaf: Certificate, attesting credential: AuthenticatorData.AttestedCredential) throws(PasskeyError) {
        guard leaf.version == .v3 else { throw PackedStatement.bad("the attestation certificate is not version 3") }
    }
}

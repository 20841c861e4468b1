import X509

/// The attestation certificate's basic constraints must say it is not a certificate authority.
struct CertificateBasicConstraintsRule: AttestationCertificateRule {
    func check(_ leaf: Certificate, attesting credential: AuthenticatorData.AttestedCredential) throws(PasskeyError) {
        let constraints: BasicConstraints?
        do {
            constraints = try leaf.extensions.basicConstraints
        } catch {
            throw PackedStatement.bad("the attestation certificate's basic constraints are malformed")
        }
        guard case .notCertificateAuthority? = constraints else {
            throw PackedStatement.bad("the attestation certificate does not say CA false in its basic constraints")
        }
    }
}

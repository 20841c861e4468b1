import X509

/// One requirement of WebAuthn §8.2.1 on a `packed` attestation's leaf certificate.
protocol AttestationCertificateRule: Sendable {
    func check(_ leaf: Certificate, attesting credential: AuthenticatorData.AttestedCredential) throws(PasskeyError)
}

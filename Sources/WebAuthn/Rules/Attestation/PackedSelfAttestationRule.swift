/// A `packed` self attestation (no certificate) must be signed by the credential key itself, with its algorithm,
/// over the authenticator data and the client data's hash.
struct PackedSelfAttestationRule: PasskeyRule {
    func check(_ evidence: RegistrationEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard let statement = try PackedStatement.of(evidence), statement.leafCertificate == nil else { return }
        let key = evidence.credentialKey
        guard statement.algorithm == key.algorithm else {
            throw PackedStatement.bad("self attestation with \(statement.algorithm.name) for a \(key.algorithm.name) key")
        }
        guard key.isValidSignature(statement.signature, for: evidence.authenticatorData.bytes + evidence.clientDataHash) else {
            throw PackedStatement.bad("the self attestation's signature does not verify with the credential key")
        }
    }
}

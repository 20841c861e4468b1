/// An assertion's signature over the authenticator data and the client data's hash must verify with the stored key.
struct AssertionSignatureRule: PasskeyRule {
    func check(_ evidence: AssertionEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        let signed = evidence.response.authenticatorData + evidence.clientDataHash
        guard evidence.credentialKey.isValidSignature(evidence.response.signature, for: signed) else {
            throw PasskeyError(
                .badSignature, "the assertion's \(evidence.credentialKey.algorithm.name) signature does not verify with the stored key")
        }
    }
}

/// An assertion must name the stored passkey it is checked against.
struct StoredCredentialRule: PasskeyRule {
    func check(_ evidence: AssertionEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard evidence.response.credentialID == evidence.stored.credentialID else {
            throw PasskeyError(.unknownCredential, "the assertion names another credential")
        }
    }
}

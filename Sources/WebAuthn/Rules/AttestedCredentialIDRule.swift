/// A registration response's credential id must be the one its authenticator data attests.
struct AttestedCredentialIDRule: PasskeyRule {
    func check(_ evidence: RegistrationEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard evidence.credential.credentialID == evidence.response.credentialID else {
            throw PasskeyError(.credentialIDMismatch, "the response's credential id is not the authenticator data's")
        }
    }
}

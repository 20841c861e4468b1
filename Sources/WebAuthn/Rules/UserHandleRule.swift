/// An assertion's user handle, when the authenticator sends one, must be the account the passkey was registered for.
struct UserHandleRule: PasskeyRule {
    func check(_ evidence: AssertionEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        if let handle = evidence.response.userHandle, handle != evidence.stored.userHandle {
            throw PasskeyError(.userHandleMismatch, "the assertion's user handle is not the credential's account")
        }
    }
}

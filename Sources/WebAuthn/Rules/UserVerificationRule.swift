/// The UV flag must be set when the requirements say user verification is required.
struct UserVerificationRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        if expected.requirements.userVerification == .required, !evidence.authenticatorData.userVerified {
            throw PasskeyError(.userVerificationMissing, "user verification is required and the UV flag is clear")
        }
    }
}

/// The UP flag must be set: somebody touched the authenticator.
struct UserPresenceRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard evidence.authenticatorData.userPresent else { throw PasskeyError(.userPresenceMissing, "the UP flag is clear") }
    }
}

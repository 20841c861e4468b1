import JuiceEncodings

/// `clientDataJSON`'s `challenge` must be the one the server issued (compared in constant time).
struct ChallengeRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard !expected.challenge.isEmpty, constantTimeEquals(evidence.clientData.challenge, expected.challenge) else {
            throw PasskeyError(.challengeMismatch, "clientDataJSON's challenge is not the one issued")
        }
    }
}

import JuiceEncodings

/// The authenticator data's `rpIdHash` must be SHA-256 of the relying party's id.
struct RelyingPartyIDHashRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard constantTimeEquals(evidence.authenticatorData.rpIDHash, expected.relyingPartyIDHash) else {
            throw PasskeyError(.rpIDMismatch, "the authenticator data is for another RP ID than \"\(expected.relyingPartyID)\"")
        }
    }
}

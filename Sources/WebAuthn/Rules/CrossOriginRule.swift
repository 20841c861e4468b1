/// The ceremony must not have run in a cross-origin frame (`crossOrigin` true, or a `topOrigin`).
struct CrossOriginRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard !evidence.clientData.crossOrigin, evidence.clientData.topOrigin == nil else {
            throw PasskeyError(.crossOrigin, "the ceremony ran in a cross-origin frame")
        }
    }
}

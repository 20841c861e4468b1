/// `clientDataJSON`'s `type` must be the ceremony's: a registration answer is never accepted as an assertion.
struct CeremonyTypeRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard evidence.clientData.type == Evidence.ceremonyType else {
            throw PasskeyError(.wrongCeremony, "clientDataJSON's type is not \(Evidence.ceremonyType)")
        }
    }
}

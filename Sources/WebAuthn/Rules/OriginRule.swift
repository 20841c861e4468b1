/// `clientDataJSON`'s `origin` must be one the relying party allows: its site, an app's associated domain.
struct OriginRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard expected.origins.contains(evidence.clientData.origin) else {
            throw PasskeyError(.originMismatch, "origin \"\(evidence.clientData.origin.prefix(100))\" is not allowed")
        }
    }
}

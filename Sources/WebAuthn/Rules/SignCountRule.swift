/// The signature counter must rise above the stored one, unless both are zero (an authenticator without a
/// counter): a lower or equal counter is a cloned authenticator.
struct SignCountRule: PasskeyRule {
    func check(_ evidence: AssertionEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        let counter = evidence.authenticatorData.signCount
        let stored = evidence.stored.signCount
        if counter != 0 || stored != 0, counter <= stored {
            throw PasskeyError(.counterRegressed, "the signature counter \(counter) is not above the stored \(stored)")
        }
    }
}

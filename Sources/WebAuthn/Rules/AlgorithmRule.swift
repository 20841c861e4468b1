/// The credential key's algorithm must be one the requirements accept.
struct AlgorithmRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        let algorithm = evidence.credentialKey.algorithm
        guard expected.requirements.algorithms.contains(algorithm) else {
            throw PasskeyError(.unsupportedAlgorithm, "\(algorithm.name) keys are not accepted")
        }
    }
}

/// The attestation format must be `none`, with an empty statement, or `packed` where the requirements accept it.
struct AttestationFormatRule: PasskeyRule {
    func check(_ evidence: RegistrationEvidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        let attestation = evidence.attestation
        switch attestation.format {
        case "none":
            guard attestation.statement == .map([]) else { throw PasskeyError(.badAttestation, "a none attestation's statement is not empty") }
        case "packed" where expected.requirements.acceptsPackedAttestation:
            return
        default:
            throw PasskeyError(.unsupportedAttestation, "attestation format \"\(attestation.format.prefix(32))\" is not accepted")
        }
    }
}

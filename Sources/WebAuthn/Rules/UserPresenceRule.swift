/// The UP flag must be set: somebody touched the authenticator. The one exception is a registration
/// the relying party asked for with `mediation: "conditional"` (``PasskeyExpectations/conditionalCreate``:
/// an automatic passkey upgrade right after a password sign-in), where WebAuthn §7.1 step 14 lets the
/// authenticator create the passkey without a gesture; an assertion always needs UP.
struct UserPresenceRule<Evidence: CeremonyEvidence>: PasskeyRule {
    func check(_ evidence: Evidence, against expected: PasskeyExpectations) throws(PasskeyError) {
        guard evidence.authenticatorData.userPresent || (expected.conditionalCreate && Evidence.self == RegistrationEvidence.self) else {
            throw PasskeyError(.userPresenceMissing, "the UP flag is clear")
        }
    }
}

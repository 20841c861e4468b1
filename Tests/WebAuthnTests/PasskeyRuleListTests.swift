import Testing

@testable import WebAuthn

/// The two ceremonies are ordered lists of named rules: a rule dropped, added or moved changes which
/// refusal a hostile response meets first, so the order is written down here as well.
@Suite("the passkey ceremonies' rules")
struct PasskeyRuleListTests {
    /// Each rule's type name, without the evidence a generic rule is specialized for.
    static func names(_ rules: [Any]) -> [String] {
        rules.map { String(String(describing: type(of: $0)).prefix { $0 != "<" }) }
    }

    @Test("a registration is checked by §7.1's rules, in order")
    func registration() {
        #expect(
            Self.names(PasskeyRelyingParty.registrationRules) == [
                "CeremonyTypeRule", "ChallengeRule", "OriginRule", "CrossOriginRule", "RelyingPartyIDHashRule", "UserPresenceRule",
                "UserVerificationRule", "BackupStateRule", "AttestedCredentialIDRule", "AlgorithmRule", "AttestationFormatRule",
                "PackedSelfAttestationRule", "PackedCertificateAttestationRule",
            ])
        #expect(
            PackedCertificateAttestationRule.certificateRules.map { String(describing: type(of: $0)) } == [
                "CertificateVersionRule", "CertificateSubjectRule", "CertificateBasicConstraintsRule", "CertificateAAGUIDRule",
            ])
    }

    @Test("an assertion is checked by §7.2's rules, in order, the signature before the counter")
    func authentication() {
        #expect(
            Self.names(PasskeyRelyingParty.authenticationRules) == [
                "StoredCredentialRule", "UserHandleRule", "CeremonyTypeRule", "ChallengeRule", "OriginRule", "CrossOriginRule",
                "RelyingPartyIDHashRule", "UserPresenceRule", "UserVerificationRule", "BackupStateRule", "BackupEligibilityRule",
                "AlgorithmRule", "AssertionSignatureRule", "SignCountRule",
            ])
    }
}

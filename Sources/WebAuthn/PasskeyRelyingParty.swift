import Crypto

/// The WebAuthn relying party's verification of the two ceremonies (WebAuthn Level 3 §7.1 and §7.2),
/// as pure functions of the response, the challenge the server issued and, for an assertion, the
/// stored credential. It keeps no state: challenges and credentials are the caller's.
///
/// Each ceremony is an ordered list of rules, one per file in `Rules/` (``registrationRules``,
/// ``authenticationRules``); the first refusal is thrown.
///
/// ```swift
/// let party = PasskeyRelyingParty(id: "example.com", origins: ["https://example.com"], requirements: PasskeyRequirements())
/// let registration = try party.verifyRegistration(response, challenge: issued)
/// let assertion = try party.verifyAuthentication(other, challenge: issued2, credential: stored)
/// ```
package struct PasskeyRelyingParty: Sendable {
    /// §7.1's checks of a registration, in order.
    static let registrationRules: [any PasskeyRule<RegistrationEvidence>] = [
        CeremonyTypeRule(), ChallengeRule(), OriginRule(), CrossOriginRule(),
        RelyingPartyIDHashRule(), UserPresenceRule(), UserVerificationRule(), BackupStateRule(),
        AttestedCredentialIDRule(), AlgorithmRule(),
        AttestationFormatRule(), PackedSelfAttestationRule(), PackedCertificateAttestationRule(),
    ]

    /// §7.2's checks of an assertion against the stored passkey, in order.
    static let authenticationRules: [any PasskeyRule<AssertionEvidence>] = [
        StoredCredentialRule(), UserHandleRule(),
        CeremonyTypeRule(), ChallengeRule(), OriginRule(), CrossOriginRule(),
        RelyingPartyIDHashRule(), UserPresenceRule(), UserVerificationRule(), BackupStateRule(), BackupEligibilityRule(),
        AlgorithmRule(), AssertionSignatureRule(), SignCountRule(),
    ]

    /// The RP ID: a registrable domain the origins are within (e.g. `example.com`).
    package let id: String
    /// The origins a ceremony may come from: the site's `https://` origin and native apps' origins.
    package let origins: Set<String>
    /// Origins of other sites this relying party lists in `/.well-known/webauthn`, accepted too.
    package let relatedOrigins: RelatedOrigins
    package let requirements: PasskeyRequirements
    /// SHA-256 of ``id``: what an authenticator data's `rpIdHash` must be.
    private let idHash: [UInt8]

    package init(id: String, origins: Set<String>, relatedOrigins: RelatedOrigins = .none, requirements: PasskeyRequirements) {
        self.id = id
        self.origins = origins
        self.relatedOrigins = relatedOrigins
        self.requirements = requirements
        self.idHash = Array(SHA256.hash(data: Array(id.utf8)))
    }

    /// Checks a registration (§7.1) and returns what to store.
    ///
    /// - Parameter conditional: The registration was asked for with `mediation: "conditional"` (an
    ///   automatic passkey upgrade): the authenticator may then leave UP clear (§7.1 step 14), and
    ///   nothing else changes. The caller decides when a ceremony may be one (never from the client's word).
    package func verifyRegistration(
        _ response: RegistrationResponse, challenge: [UInt8], conditional: Bool = false
    ) throws(PasskeyError) -> VerifiedRegistration {
        let evidence = try RegistrationEvidence(response)
        try Self.registrationRules.check(evidence, against: expectations(challenge, conditionalCreate: conditional))
        let data = evidence.authenticatorData
        let credential = evidence.credential
        return VerifiedRegistration(
            credentialID: credential.credentialID, publicKey: credential.publicKeyBytes, algorithm: credential.publicKey.algorithm,
            signCount: data.signCount, userPresent: data.userPresent, userVerified: data.userVerified, backupEligible: data.backupEligible,
            backedUp: data.backedUp, attestationFormat: evidence.attestation.format,
            attestationType: try PackedStatement.of(evidence)?.attestationType ?? .none, aaguid: credential.aaguid)
    }

    /// Checks an assertion (§7.2) made with `credential`, which the caller found by the response's
    /// credential id, and returns the new counter and flags to store.
    package func verifyAuthentication(
        _ response: AuthenticationResponse, challenge: [UInt8], credential: RegisteredPasskey
    ) throws(PasskeyError) -> VerifiedAuthentication {
        let evidence = try AssertionEvidence(response, stored: credential)
        try Self.authenticationRules.check(evidence, against: expectations(challenge))
        let data = evidence.authenticatorData
        return VerifiedAuthentication(signCount: data.signCount, userVerified: data.userVerified, backedUp: data.backedUp)
    }

    private func expectations(_ challenge: [UInt8], conditionalCreate: Bool = false) -> PasskeyExpectations {
        PasskeyExpectations(
            challenge: challenge, relyingPartyID: id, relyingPartyIDHash: idHash, origins: origins, relatedOrigins: relatedOrigins,
            requirements: requirements, conditionalCreate: conditionalCreate)
    }
}

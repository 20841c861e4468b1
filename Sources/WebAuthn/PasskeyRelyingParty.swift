import Crypto
import JuiceEncodings

/// The WebAuthn relying party's verification of the two ceremonies (WebAuthn Level 3 §7.1 and §7.2),
/// as pure functions of the response, the challenge the server issued and, for an assertion, the
/// stored credential. It keeps no state: challenges and credentials are the caller's.
///
/// ```swift
/// let party = PasskeyRelyingParty(id: "example.com", origins: ["https://example.com"], policy: PasskeyPolicy())
/// let registration = try party.verifyRegistration(response, challenge: issued)
/// let assertion = try party.verifyAuthentication(other, challenge: issued2, credential: stored)
/// ```
package struct PasskeyRelyingParty: Sendable {
    /// The RP ID: a registrable domain the origins are within (e.g. `example.com`).
    package let id: String
    /// The origins a ceremony may come from: the site's `https://` origin and native apps' origins.
    package let origins: Set<String>
    package let policy: PasskeyPolicy
    /// SHA-256 of ``id``: what an authenticator data's `rpIdHash` must be.
    private let idHash: [UInt8]

    package init(id: String, origins: Set<String>, policy: PasskeyPolicy) {
        self.id = id
        self.origins = origins
        self.policy = policy
        self.idHash = Array(SHA256.hash(data: Array(id.utf8)))
    }

    /// Checks a registration (§7.1) and returns what to store.
    package func verifyRegistration(_ response: RegistrationResponse, challenge: [UInt8]) throws(PasskeyError) -> VerifiedRegistration {
        try checkClientData(response.clientData, type: "webauthn.create", challenge: challenge)
        let attestation = try AttestationObject(response.attestationObject)
        let data = attestation.authenticatorData
        try checkAuthenticatorData(data)
        guard let credential = data.attestedCredential else {
            throw PasskeyError(.malformedAuthenticatorData, "a registration's authenticator data has no attested credential (AT clear)")
        }
        guard credential.credentialID == response.credentialID else {
            throw PasskeyError(.credentialIDMismatch, "the response's credential id is not the authenticator data's")
        }
        let algorithm = credential.publicKey.algorithm
        guard policy.algorithms.contains(algorithm) else {
            throw PasskeyError(.unsupportedAlgorithm, "\(algorithm.name) keys are not accepted")
        }
        let attestationType: AttestationType
        switch attestation.format {
        case "none":
            guard attestation.statement == .map([]) else {
                throw PasskeyError(.badAttestation, "a none attestation's statement is not empty")
            }
            attestationType = .none
        case "packed" where policy.acceptsPackedAttestation:
            let clientDataHash = Array(SHA256.hash(data: response.clientDataJSON))
            attestationType = try PackedAttestation.verify(
                attestation.statement, authenticatorData: data, clientDataHash: clientDataHash, credential: credential)
        default:
            throw PasskeyError(.unsupportedAttestation, "attestation format \"\(attestation.format.prefix(32))\" is not accepted")
        }
        return VerifiedRegistration(
            credentialID: credential.credentialID, publicKey: credential.publicKeyBytes, algorithm: algorithm,
            signCount: data.signCount, userVerified: data.userVerified, backupEligible: data.backupEligible,
            backedUp: data.backedUp, attestationFormat: attestation.format, attestationType: attestationType,
            aaguid: credential.aaguid)
    }

    /// Checks an assertion (§7.2) made with `credential`, which the caller found by the response's
    /// credential id, and returns the new counter and flags to store.
    package func verifyAuthentication(
        _ response: AuthenticationResponse, challenge: [UInt8], credential: RegisteredPasskey
    ) throws(PasskeyError) -> VerifiedAuthentication {
        guard response.credentialID == credential.credentialID else {
            throw PasskeyError(.unknownCredential, "the assertion names another credential")
        }
        if let handle = response.userHandle, handle != credential.userHandle {
            throw PasskeyError(.userHandleMismatch, "the assertion's user handle is not the credential's account")
        }
        try checkClientData(response.clientData, type: "webauthn.get", challenge: challenge)
        let data = try AuthenticatorData(response.authenticatorData)
        try checkAuthenticatorData(data)
        guard data.backupEligible == credential.backupEligible else {
            throw PasskeyError(.backupEligibilityChanged, "the BE flag is not the one recorded at registration")
        }
        let key = try COSEKey(encoded: credential.publicKey)
        guard policy.algorithms.contains(key.algorithm) else {
            throw PasskeyError(.unsupportedAlgorithm, "\(key.algorithm.name) keys are not accepted")
        }
        let signed = response.authenticatorData + Array(SHA256.hash(data: response.clientDataJSON))
        guard key.isValidSignature(response.signature, for: signed) else {
            throw PasskeyError(.badSignature, "the assertion's \(key.algorithm.name) signature does not verify with the stored key")
        }
        if data.signCount != 0 || credential.signCount != 0, data.signCount <= credential.signCount {
            throw PasskeyError(
                .counterRegressed, "the signature counter \(data.signCount) is not above the stored \(credential.signCount)")
        }
        return VerifiedAuthentication(signCount: data.signCount, userVerified: data.userVerified, backedUp: data.backedUp)
    }

    /// Steps common to both ceremonies on `clientDataJSON`: type, challenge, origin, no cross-origin frame.
    func checkClientData(_ clientData: ClientData, type: String, challenge: [UInt8]) throws(PasskeyError) {
        guard clientData.type == type else {
            throw PasskeyError(.wrongCeremony, "clientDataJSON's type is not \(type)")
        }
        guard !challenge.isEmpty, constantTimeEquals(clientData.challenge, challenge) else {
            throw PasskeyError(.challengeMismatch, "clientDataJSON's challenge is not the one issued")
        }
        guard origins.contains(clientData.origin) else {
            throw PasskeyError(.originMismatch, "origin \"\(clientData.origin.prefix(100))\" is not allowed")
        }
        guard !clientData.crossOrigin, clientData.topOrigin == nil else {
            throw PasskeyError(.crossOrigin, "the ceremony ran in a cross-origin frame")
        }
    }

    /// Steps common to both ceremonies on the authenticator data: RP ID hash, UP, UV by policy.
    func checkAuthenticatorData(_ data: AuthenticatorData) throws(PasskeyError) {
        guard constantTimeEquals(data.rpIDHash, idHash) else {
            throw PasskeyError(.rpIDMismatch, "the authenticator data is for another RP ID than \"\(id)\"")
        }
        guard data.userPresent else { throw PasskeyError(.userPresenceMissing, "the UP flag is clear") }
        if policy.userVerification == .required, !data.userVerified {
            throw PasskeyError(.userVerificationMissing, "user verification is required and the UV flag is clear")
        }
    }
}

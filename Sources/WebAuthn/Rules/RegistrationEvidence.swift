import Crypto

/// A registration response, read: the attestation object and the credential it attests.
package struct RegistrationEvidence: CeremonyEvidence {
    package static let ceremonyType = "webauthn.create"

    package let response: RegistrationResponse
    package let attestation: AttestationObject
    /// The attested credential data (the AT flag is set).
    package let credential: AuthenticatorData.AttestedCredential
    package let clientDataHash: [UInt8]

    package var clientData: ClientData { response.clientData }
    package var authenticatorData: AuthenticatorData { attestation.authenticatorData }
    package var credentialKey: COSEKey { credential.publicKey }

    /// - Throws: the attestation object's refusal, or ``PasskeyError/Code/malformedAuthenticatorData``
    ///   when its authenticator data attests no credential.
    package init(_ response: RegistrationResponse) throws(PasskeyError) {
        self.response = response
        attestation = try AttestationObject(response.attestationObject)
        guard let credential = attestation.authenticatorData.attestedCredential else {
            throw PasskeyError(.malformedAuthenticatorData, "a registration's authenticator data has no attested credential (AT clear)")
        }
        self.credential = credential
        clientDataHash = Array(SHA256.hash(data: response.clientDataJSON))
    }
}

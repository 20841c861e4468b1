import Crypto

/// An authentication response, read, beside the stored passkey it claims to be made with.
package struct AssertionEvidence: CeremonyEvidence {
    package static let ceremonyType = "webauthn.get"

    package let response: AuthenticationResponse
    package let authenticatorData: AuthenticatorData
    /// The passkey the caller found by the response's credential id.
    package let stored: RegisteredPasskey
    package let credentialKey: COSEKey
    package let clientDataHash: [UInt8]

    package var clientData: ClientData { response.clientData }

    /// - Throws: the authenticator data's refusal, or the stored key's (``PasskeyError/Code/malformedPublicKey``).
    package init(_ response: AuthenticationResponse, stored: RegisteredPasskey) throws(PasskeyError) {
        self.response = response
        self.stored = stored
        authenticatorData = try AuthenticatorData(response.authenticatorData)
        credentialKey = try COSEKey(encoded: stored.publicKey)
        clientDataHash = Array(SHA256.hash(data: response.clientDataJSON))
    }
}

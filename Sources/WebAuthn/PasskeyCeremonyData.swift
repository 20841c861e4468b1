/// What a browser or app sends back from `navigator.credentials.create()` (the fields the relying
/// party verifies), decoded from base64url. Its `clientDataJSON` is parsed once, here: the server
/// finds the stored challenge by ``clientData`` and the relying party checks the same value.
package struct RegistrationResponse: Sendable {
    package let credentialID: [UInt8]
    /// The raw bytes, whose SHA-256 the attestation signs.
    package let clientDataJSON: [UInt8]
    /// `clientDataJSON`, parsed.
    package let clientData: ClientData
    package let attestationObject: [UInt8]

    /// - Throws: ``PasskeyError/Code/malformedClientData`` when `clientDataJSON` is not client data.
    package init(credentialID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8]) throws(PasskeyError) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.clientData = try ClientData(json: clientDataJSON)
        self.attestationObject = attestationObject
    }
}

/// What a browser or app sends back from `navigator.credentials.get()`, decoded from base64url, its
/// `clientDataJSON` parsed once (as in ``RegistrationResponse``).
package struct AuthenticationResponse: Sendable {
    package let credentialID: [UInt8]
    /// The raw bytes, whose SHA-256 the signature covers.
    package let clientDataJSON: [UInt8]
    /// `clientDataJSON`, parsed.
    package let clientData: ClientData
    package let authenticatorData: [UInt8]
    package let signature: [UInt8]
    /// The user handle a discoverable credential returns (nil when the authenticator sent none).
    package let userHandle: [UInt8]?

    /// - Throws: ``PasskeyError/Code/malformedClientData`` when `clientDataJSON` is not client data.
    package init(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?
    ) throws(PasskeyError) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.clientData = try ClientData(json: clientDataJSON)
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// A registration that passed every check: what the server stores.
package struct VerifiedRegistration: Sendable {
    package let credentialID: [UInt8]
    /// The COSE_Key bytes as the authenticator wrote them.
    package let publicKey: [UInt8]
    package let algorithm: COSEAlgorithm
    package let signCount: UInt32
    /// UP: clear only for a conditional registration (``PasskeyRelyingParty/verifyRegistration(_:challenge:conditional:)``).
    package let userPresent: Bool
    package let userVerified: Bool
    package let backupEligible: Bool
    package let backedUp: Bool
    package let attestationFormat: String
    package let attestationType: AttestationType
    package let aaguid: [UInt8]
}

/// What the relying party knows of a stored passkey when it checks an assertion.
package struct RegisteredPasskey: Sendable {
    package var credentialID: [UInt8]
    /// The WebAuthn user handle of the account it belongs to.
    package var userHandle: [UInt8]
    /// The COSE_Key bytes stored at registration.
    package var publicKey: [UInt8]
    package var signCount: UInt32
    package var backupEligible: Bool

    package init(credentialID: [UInt8], userHandle: [UInt8], publicKey: [UInt8], signCount: UInt32, backupEligible: Bool) {
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// An assertion that passed every check: what the server updates.
package struct VerifiedAuthentication: Sendable, Equatable {
    /// The counter to store (the authenticator's new value).
    package let signCount: UInt32
    package let userVerified: Bool
    package let backedUp: Bool
}

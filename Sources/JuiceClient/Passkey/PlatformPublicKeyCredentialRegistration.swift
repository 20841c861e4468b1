import Foundation

/// A new passkey, as `ASAuthorizationPlatformPublicKeyCredentialRegistration`: what a relying party
/// verifies and stores (send it with ``JuiceServerAPI/finishPasskeyRegistration(_:name:sessionToken:)``).
public struct PlatformPublicKeyCredentialRegistration: Sendable, Hashable {
    /// The new credential's id.
    public let credentialID: Data
    /// The exact `clientDataJSON` bytes the attestation covers.
    public let rawClientDataJSON: Data
    /// The CBOR attestation object (format `none` from ``SoftwareAuthenticator``); optional as in
    /// AuthenticationServices.
    public let rawAttestationObject: Data?

    /// A registration with the given fields.
    public init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data?) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
    }
}

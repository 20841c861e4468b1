import Foundation

/// A passkey's signature over a relying party's challenge, as `ASAuthorizationPlatformPublicKeyCredentialAssertion`
/// (send it with ``JuiceServerAPI/signInWithPasskey(_:)``).
public struct PlatformPublicKeyCredentialAssertion: Sendable, Hashable {
    /// The id of the passkey that signed.
    public let credentialID: Data
    /// The exact `clientDataJSON` bytes whose SHA-256 was signed.
    public let rawClientDataJSON: Data
    /// The authenticator data that was signed (RP ID hash, flags, signature counter).
    public let rawAuthenticatorData: Data
    /// The ECDSA signature (DER) over the authenticator data and the client data's hash.
    public let signature: Data
    /// The user handle the relying party gave when the passkey was created.
    public let userID: Data

    /// An assertion with the given fields.
    public init(credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
        self.userID = userID
    }
}

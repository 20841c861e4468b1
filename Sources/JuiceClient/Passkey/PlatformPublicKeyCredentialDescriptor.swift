import Foundation

/// A passkey a relying party names in a request, as `ASAuthorizationPlatformPublicKeyCredentialDescriptor`:
/// the credentials an assertion may use (``PlatformPublicKeyCredentialAssertionRequest/allowedCredentials``)
/// or a registration must not duplicate (``PlatformPublicKeyCredentialRegistrationRequest/excludedCredentials``).
public struct PlatformPublicKeyCredentialDescriptor: Sendable, Hashable {
    /// The credential id.
    public var credentialID: Data

    /// A descriptor for the passkey `credentialID`.
    public init(credentialID: Data) {
        self.credentialID = credentialID
    }
}

import Foundation

/// A request to sign in with a saved passkey, as `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`.
///
/// It answers without the person, as AutoFill offers a saved passkey: the most recently created
/// passkey of the relying party that ``allowedCredentials`` allows (any, when the list is empty).
public struct PlatformPublicKeyCredentialAssertionRequest: AuthorizationRequest {
    /// The provider that made the request.
    public let provider: PlatformPublicKeyCredentialProvider
    /// The relying party's challenge.
    public var challenge: Data
    /// When not empty, only these passkeys may sign.
    public var allowedCredentials: [PlatformPublicKeyCredentialDescriptor] = []
    /// Whether to verify the person (always met: see ``PublicKeyCredentialUserVerificationPreference``).
    public var userVerificationPreference: PublicKeyCredentialUserVerificationPreference = .preferred

    /// The RP ID of the provider.
    public var relyingPartyIdentifier: String { provider.relyingPartyIdentifier }

    init(provider: PlatformPublicKeyCredentialProvider, challenge: Data) {
        self.provider = provider
        self.challenge = challenge
    }

    /// Signs the challenge with a saved passkey, counting the use.
    /// - Throws: ``AuthorizationError/Code/notHandled`` when no allowed passkey of the relying party is
    ///   saved; ``AuthorizationError/Code/failed`` for an empty challenge or a store that cannot be read
    ///   or written.
    public func perform(interactive: Bool) async throws(AuthorizationError) -> AuthorizationCredential {
        .publicKeyCredentialAssertion(try await provider.authenticator.getAssertion(for: self))
    }
}

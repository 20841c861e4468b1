import Foundation

/// A request to create a passkey, as `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`.
///
/// Creating a passkey needs the person's consent, so the request answers only when the controller
/// may ask (``AuthorizationController/performRequests(options:)`` without
/// ``AuthorizationController/RequestOptions/preferImmediatelyAvailableCredentials``); a credential
/// ``excludedCredentials`` names that this machine already holds fails with
/// ``AuthorizationError/Code/matchedExcludedCredential``.
public struct PlatformPublicKeyCredentialRegistrationRequest: AuthorizationRequest {
    /// The provider that made the request.
    public let provider: PlatformPublicKeyCredentialProvider
    /// The relying party's challenge.
    public var challenge: Data
    /// The account's user name.
    public var name: String
    /// The relying party's user handle for the account (1 to 64 bytes), returned by every assertion.
    public var userID: Data
    /// The account's display name, when it differs from ``name``.
    public var displayName: String?
    /// Whether to verify the person (always met: see ``PublicKeyCredentialUserVerificationPreference``).
    public var userVerificationPreference: PublicKeyCredentialUserVerificationPreference = .preferred
    /// Passkeys the account already has: none of them may be created again.
    public var excludedCredentials: [PlatformPublicKeyCredentialDescriptor] = []

    /// The RP ID of the provider.
    public var relyingPartyIdentifier: String { provider.relyingPartyIdentifier }

    init(provider: PlatformPublicKeyCredentialProvider, challenge: Data, name: String, userID: Data) {
        self.provider = provider
        self.challenge = challenge
        self.name = name
        self.userID = userID
    }

    /// Creates the passkey and keeps its key in the store.
    /// - Throws: ``AuthorizationError/Code/notHandled`` when the person may not be asked;
    ///   ``AuthorizationError/Code/matchedExcludedCredential`` when an excluded passkey is here;
    ///   ``AuthorizationError/Code/failed`` for an empty challenge, a user handle outside 1–64 bytes,
    ///   or a store that cannot be read or written.
    public func perform(interactive: Bool) async throws(AuthorizationError) -> AuthorizationCredential {
        guard interactive else { throw .notHandled("creating a passkey needs the person's consent") }
        return .publicKeyCredentialRegistration(try await provider.authenticator.makeCredential(for: self))
    }
}

import Foundation

/// What the server's `POST /api/auth/passkey/options` asks of a passkey sign-in
/// (`PublicKeyCredentialRequestOptions`): the fields a ``PlatformPublicKeyCredentialAssertionRequest`` takes.
public struct PasskeyRequestOptions: Sendable, Hashable {
    /// The single-use challenge.
    public var challenge: Data
    /// The RP ID.
    public var relyingPartyIdentifier: String
    /// When not empty, the only passkeys that may sign (the server sends none: any passkey of the RP).
    public var allowedCredentials: [Data]
    /// The server's user verification policy.
    public var userVerification: PublicKeyCredentialUserVerificationPreference

    /// Options with the given fields.
    public init(
        challenge: Data, relyingPartyIdentifier: String, allowedCredentials: [Data] = [],
        userVerification: PublicKeyCredentialUserVerificationPreference = .preferred
    ) {
        self.challenge = challenge
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.allowedCredentials = allowedCredentials
        self.userVerification = userVerification
    }

    /// An assertion request for these options from `provider`, which must be for their RP ID.
    public func assertionRequest(from provider: PlatformPublicKeyCredentialProvider) -> PlatformPublicKeyCredentialAssertionRequest {
        var request = provider.createCredentialAssertionRequest(challenge: challenge)
        request.allowedCredentials = allowedCredentials.map(PlatformPublicKeyCredentialDescriptor.init(credentialID:))
        request.userVerificationPreference = userVerification
        return request
    }
}

import Foundation

/// What the server's `POST /api/passkeys/registration/options` asks of a new passkey
/// (`PublicKeyCredentialCreationOptions`): the fields a ``PlatformPublicKeyCredentialRegistrationRequest`` takes.
public struct PasskeyCreationOptions: Sendable, Hashable {
    /// The single-use challenge.
    public var challenge: Data
    /// The RP ID.
    public var relyingPartyIdentifier: String
    /// The account's user handle.
    public var userID: Data
    /// The account's user name.
    public var userName: String
    /// The account's display name.
    public var displayName: String
    /// The passkeys the account already has.
    public var excludedCredentials: [Data]
    /// The server's user verification policy.
    public var userVerification: PublicKeyCredentialUserVerificationPreference

    /// Options with the given fields.
    public init(
        challenge: Data, relyingPartyIdentifier: String, userID: Data, userName: String, displayName: String, excludedCredentials: [Data] = [],
        userVerification: PublicKeyCredentialUserVerificationPreference = .preferred
    ) {
        self.challenge = challenge
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.userID = userID
        self.userName = userName
        self.displayName = displayName
        self.excludedCredentials = excludedCredentials
        self.userVerification = userVerification
    }

    /// A registration request for these options from `provider`, which must be for their RP ID.
    public func registrationRequest(from provider: PlatformPublicKeyCredentialProvider) -> PlatformPublicKeyCredentialRegistrationRequest {
        var request = provider.createCredentialRegistrationRequest(challenge: challenge, name: userName, userID: userID)
        request.displayName = displayName
        request.excludedCredentials = excludedCredentials.map(PlatformPublicKeyCredentialDescriptor.init(credentialID:))
        request.userVerificationPreference = userVerification
        return request
    }
}

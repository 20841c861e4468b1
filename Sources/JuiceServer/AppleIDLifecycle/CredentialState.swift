/// What a client is told of an Apple ID's credential, in AuthenticationServices' terms
/// (`ASAuthorizationAppleIDProvider.CredentialState`): derived from the stored ``AppleIdentityStatus``
/// (and from the tables of transferred and unknown subjects), never stored itself. JuiceClient's
/// `CredentialState` is the same answer on the device side, under the same name.
enum CredentialState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Consent was withdrawn, the Apple ID was deleted, or Apple refused its refresh token.
    case revoked
    /// Signed in and not revoked.
    case authorized
    /// This server has no such Apple ID (never signed in, or the account was deleted).
    case notFound
    /// The app was transferred to another team and this `sub` was replaced by a new one.
    case transferred
}

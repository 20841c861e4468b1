/// What the server knows of an Apple ID, in AuthenticationServices' terms
/// (`ASAuthorizationAppleIDProvider.CredentialState`), stored per `apple_identities` row;
/// JuiceClient's `CredentialState` is the same answer on the device side.
enum AppleIdentityState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Consent was withdrawn, the Apple ID was deleted, or Apple refused its refresh token.
    case revoked
    /// Signed in and not revoked.
    case authorized
    /// This server has no such Apple ID (never signed in, or the account was deleted).
    case notFound
    /// The app was transferred to another team and this `sub` was replaced by a new one.
    case transferred
}

/// What the server last recorded of a linked Apple ID (the `apple_identities.state` column): the stored
/// status behind the ``CredentialState`` that clients are told.
///
/// Both `revoked` and `deleted` read as ``CredentialState/revoked`` to a client; they are kept
/// apart because Apple's notifications say which it was (`consent-revoked` or `account-delete`).
enum AppleIdentityStatus: String, Sendable, Hashable {
    /// Signed in, and Apple has not said otherwise.
    case authorized
    /// Consent was withdrawn, or Apple refused the stored refresh token.
    case revoked
    /// Apple said the Apple ID was deleted.
    case deleted

    /// The status a stored `state` value records; one this version does not know reads as `revoked`
    /// (never as signed in).
    init(stored value: String) {
        self = AppleIdentityStatus(rawValue: value) ?? .revoked
    }

    /// The credential state a client is told for this record.
    var credentialState: CredentialState {
        self == .authorized ? .authorized : .revoked
    }
}

/// What ``PasskeyStore/remove(credentialID:accountID:)`` did.
enum PasskeyRemoval: Sendable, Equatable {
    case removed
    /// The account has no passkey with that id.
    case notFound
    /// Refused: it is the account's last way to sign in.
    case lastSignInMethod
}

/// Why a refresh token could not be sealed or opened (the key, the row or the `sub` does not match).
enum RefreshTokenCipherError: Error, Sendable, Hashable {
    /// Sealing produced no combined box.
    case sealFailed
    /// The stored value is not a sealed box, or it was altered, sealed with another key or for another `sub`.
    case cannotOpen
}

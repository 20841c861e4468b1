/// The outcome of ``AppleSignInTransaction/run(_:linkTo:replacingSession:session:)``.
struct AppleSignInResult: Sendable, Hashable {
    /// The signed-in account, as stored after the sign-in.
    let account: Account
    /// The session started.
    let session: Session
    /// Whether the account was created now.
    let createdAccount: Bool
    /// Whether the Apple ID was linked to an existing account now.
    let linked: Bool
}

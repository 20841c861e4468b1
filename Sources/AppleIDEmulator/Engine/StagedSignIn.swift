/// A sign-in Apple completed for an app, staged in process (``AppleEngine/signIn(appleID:clientID:redirectURI:nonce:hideEmail:device:)``):
/// what Apple hands the app, as its pages would after the person consented.
package struct StagedSignIn: Sendable {
    /// The authorization code (single use, five minutes).
    package let code: String
    /// The identity token that travels with the code (`c_hash` binds it to the code).
    package let idToken: String
    /// The `user` JSON Apple sends on the first authorization only (name and email).
    package let user: String?
    /// The token's `sub`.
    package let subject: String
    /// The email the app sees (real or relay), if the email scope was granted.
    package let email: String?
}

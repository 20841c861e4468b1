import AppleSignIn
import Foundation

/// A Juice account: signed up with a password, created by Sign in with Apple, or both (linked).
struct Account: Sendable, Hashable {
    /// The account's id (random, stable).
    let id: String
    /// When it was created.
    let createdAt: Date
    /// Given name: from Apple's once-only `user` data, never overwritten by a later empty value.
    var givenName: String?
    /// Family name, likewise.
    var familyName: String?
    /// The contact email: Apple's (possibly a relay address), updated from later tokens.
    var email: String?
    /// Whether ``email`` is an Apple private relay address.
    var isPrivateEmail: Bool
    /// The account's unique username, when it has one: its password sign-in name, or the name a
    /// passkey-first account chose (such an account may have no password).
    let username: String?
    /// The linked Apple ID, when there is one.
    let apple: AppleIdentity?
}

import AppleSignIn
import Foundation

/// An Apple ID linked to an account, by its `sub` for this developer team.
struct AppleIdentity: Sendable, Hashable {
    /// Apple's stable user identifier (`sub`), the `user` of AuthenticationServices.
    let subject: String
    /// The client id the latest sign-in was for (Services ID or bundle id).
    let clientID: String
    /// The latest email Apple gave (real or relay).
    let email: String?
    /// Whether ``email`` is a private relay address.
    let isPrivateEmail: Bool?
    /// Apple's real-user assessment, when Apple sent one.
    let realUserStatus: RealUserStatus?
    /// What the server last recorded (`authorized` until Apple says otherwise).
    let status: AppleIdentityStatus
    /// Whether a refresh token is stored (sealed) for this identity.
    let hasRefreshToken: Bool
    /// When the Apple ID was first linked.
    let createdAt: Date
}

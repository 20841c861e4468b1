import AppleSignIn
import Foundation

/// An Apple ID linked to an account, by its `sub` for this developer team.
public struct AppleIdentity: Sendable, Hashable {
    /// Apple's stable user identifier (`sub`), the `user` of AuthenticationServices.
    public let subject: String
    /// The client id the latest sign-in was for (Services ID or bundle id).
    public let clientID: String
    /// The latest email Apple gave (real or relay).
    public let email: String?
    /// Whether ``email`` is a private relay address.
    public let isPrivateEmail: Bool?
    /// Apple's real-user assessment, when Apple sent one.
    public let realUserStatus: RealUserStatus?
    /// The credential state as the server last knew it (`authorized` until Apple says otherwise).
    public let state: String
    /// Whether a refresh token is stored (sealed) for this identity.
    public let hasRefreshToken: Bool
    /// When the Apple ID was first linked.
    public let createdAt: Date

    /// Creates an identity value.
    public init(
        subject: String, clientID: String, email: String?, isPrivateEmail: Bool?, realUserStatus: RealUserStatus?, state: String,
        hasRefreshToken: Bool,
        createdAt: Date
    ) {
        self.subject = subject
        self.clientID = clientID
        self.email = email
        self.isPrivateEmail = isPrivateEmail
        self.realUserStatus = realUserStatus
        self.state = state
        self.hasRefreshToken = hasRefreshToken
        self.createdAt = createdAt
    }
}

import Foundation

/// The credential a successful Apple ID authorization yields, as `ASAuthorizationAppleIDCredential`.
///
/// Send ``identityToken`` and ``authorizationCode`` to your server, with ``fullName`` and ``email``: Apple
/// gives those two only on the person's first authorization of the app. Its `description` never shows
/// the token or the code.
public struct AppleIDCredential: Sendable, Hashable {
    /// The stable user identifier for this developer team (the identity token's `sub`).
    public let user: String
    /// The state sent with the request, echoed back.
    public let state: String?
    /// The scopes the person granted in this authorization (empty after the first one).
    public let authorizedScopes: [AuthorizationScope]
    /// The single-use authorization code (UTF-8), valid five minutes; `nil` for a credential reused from a
    /// saved session.
    public let authorizationCode: Data?
    /// The identity token, a JWT (UTF-8); `nil` for a credential reused from a saved session.
    public let identityToken: Data?
    /// The email the person shared (maybe a private relay address); first authorization only.
    public let email: String?
    /// The name the person shared; first authorization only.
    public let fullName: PersonNameComponents?
    /// Apple's assessment of whether the person is real.
    public let realUserStatus: UserDetectionStatus

    /// A credential with every field given.
    public init(
        user: String,
        state: String?,
        authorizedScopes: [AuthorizationScope],
        authorizationCode: Data?,
        identityToken: Data?,
        email: String?,
        fullName: PersonNameComponents?,
        realUserStatus: UserDetectionStatus
    ) {
        self.user = user
        self.state = state
        self.authorizedScopes = authorizedScopes
        self.authorizationCode = authorizationCode
        self.identityToken = identityToken
        self.email = email
        self.fullName = fullName
        self.realUserStatus = realUserStatus
    }
}

extension AppleIDCredential: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "AppleIDCredential(user: \(user), authorizedScopes: \(authorizedScopes), email: \(email ?? "nil"), "
            + "identityToken: \(identityToken == nil ? "nil" : "<redacted>"), authorizationCode: \(authorizationCode == nil ? "nil" : "<redacted>"))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["user": user, "authorizedScopes": authorizedScopes, "email": email as Any, "realUserStatus": realUserStatus])
    }
}

/// A piece of contact information an Apple ID request asks for, as `ASAuthorization.Scope`.
///
/// ```swift
/// var request = AppleIDProvider(server: server, store: store).createRequest()
/// request.requestedScopes = [.fullName, .email]
/// ```
public struct AuthorizationScope: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The AuthenticationServices raw value (`"full_name"`, `"email"`).
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The person's name.
    public static let fullName = AuthorizationScope(rawValue: "full_name")
    /// The person's email address (real or a private relay address).
    public static let email = AuthorizationScope(rawValue: "email")

    /// The scope's name in Apple's web `scope` parameter (`name`, `email`).
    var webName: String { self == .fullName ? "name" : rawValue }

    public var description: String { rawValue }
}

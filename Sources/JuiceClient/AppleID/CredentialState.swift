/// The state of a user's Apple ID credential for this app, as `ASAuthorizationAppleIDProvider.CredentialState`.
///
/// ```swift
/// switch try await AppleIDProvider(server: server, store: store).credentialState(forUserID: userID) {
/// case .authorized: break                // keep the person signed in
/// case .revoked, .notFound: showSignIn() // sign out locally and ask again
/// case .transferred: migrate()           // the app moved to another developer team
/// }
/// ```
public enum CredentialState: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The person stopped using their Apple ID with this app, or the Apple ID was deleted.
    case revoked = 0
    /// The credential is valid.
    case authorized = 1
    /// The server knows no credential for this user.
    case notFound = 2
    /// The app was transferred to another developer team; the user identifier must be migrated.
    case transferred = 3

    /// The name the server's `GET /api/credential-state` answers with (`"authorized"`, `"notFound"`, …).
    public var name: String {
        switch self {
        case .revoked: "revoked"
        case .authorized: "authorized"
        case .notFound: "notFound"
        case .transferred: "transferred"
        }
    }

    /// The state with this server-side name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = state
    }

    public var description: String { name }
}

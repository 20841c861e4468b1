import Foundation

/// Creates requests for saved passwords, as `ASAuthorizationPasswordProvider`.
///
/// ```swift
/// let passwords = PasswordProvider(server: serverURL, store: store)
/// let authorization = try await AuthorizationController(requests: [passwords.createRequest()]).performRequests()
/// ```
public struct PasswordProvider: Sendable {
    /// The server whose saved passwords are offered.
    public let server: URL
    /// Where the passwords are saved (the keychain's role).
    public let store: CredentialStore

    /// A provider offering the passwords saved in `store` for `server`.
    public init(server: URL, store: CredentialStore) {
        self.server = server
        self.store = store
    }

    /// A request for a saved password.
    public func createRequest() -> PasswordRequest {
        PasswordRequest(provider: self)
    }
}

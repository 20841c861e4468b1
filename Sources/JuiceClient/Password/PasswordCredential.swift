/// A saved user name and password, as `ASPasswordCredential`. Its `description` never shows the password.
///
/// ```swift
/// let credential = PasswordCredential(user: "alice", password: password)
/// try await store.savePassword(credential, for: server)
/// ```
public struct PasswordCredential: Sendable, Hashable, Codable {
    /// The user name.
    public let user: String
    /// The password.
    public let password: String

    /// A credential for `user` with `password`.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

extension PasswordCredential: CustomStringConvertible, CustomReflectable {
    public var description: String { "PasswordCredential(user: \(user), password: <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: ["user": user]) }
}

import Foundation

/// A signed-in session with one Juice server, as the ``CredentialStore`` keeps it.
///
/// Its `description` never shows the token.
public struct StoredSession: Sendable, Hashable, Codable {
    /// The session token the server issued (sent as `Authorization: Bearer …`).
    public var token: String
    /// The Apple user identifier (`sub`) when the session came from Sign in with Apple: what the Juice
    /// sample keeps in its keychain as the current user identifier.
    public var userIdentifier: String?
    /// The server's account id.
    public var accountID: String?

    /// A session with `token`, for the Apple user `userIdentifier` if any.
    public init(token: String, userIdentifier: String? = nil, accountID: String? = nil) {
        self.token = token
        self.userIdentifier = userIdentifier
        self.accountID = accountID
    }
}

extension StoredSession: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "StoredSession(userIdentifier: \(userIdentifier ?? "nil"), accountID: \(accountID ?? "nil"), token: <redacted>)"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["userIdentifier": userIdentifier as Any, "accountID": accountID as Any])
    }
}

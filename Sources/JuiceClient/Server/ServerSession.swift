/// A successful sign-in at the server: `{token, account}`. Its `description` never shows the token.
public struct ServerSession: Sendable, Hashable, Codable {
    /// The session token, sent as `Authorization: Bearer …`.
    public let token: String
    /// The signed-in account.
    public let account: JuiceAccount

    /// A session `token` for `account`.
    public init(token: String, account: JuiceAccount) {
        self.token = token
        self.account = account
    }
}

extension ServerSession: CustomStringConvertible, CustomReflectable {
    public var description: String { "ServerSession(account: \(account.id), token: <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: ["account": account]) }
}

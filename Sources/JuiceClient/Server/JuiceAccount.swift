/// An account as the server's API shows it (`GET /api/me`, and the `account` of a sign-in).
public struct JuiceAccount: Sendable, Hashable, Codable {
    /// A person's name.
    public struct Name: Sendable, Hashable, Codable {
        /// Given name.
        public var givenName: String?
        /// Family name.
        public var familyName: String?

        /// A name with the given parts.
        public init(givenName: String? = nil, familyName: String? = nil) {
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    /// The server's account id.
    public var id: String
    /// The Apple user identifier (`sub`), when an Apple ID is linked.
    public var user: String?
    /// The name.
    public var name: Name?
    /// The contact email (maybe a private relay address).
    public var email: String?
    /// Whether ``email`` is a private relay address.
    public var isPrivateEmail: Bool?
    /// Apple's real-user status as the server names it (`unsupported`, `unknown`, `likelyReal`).
    public var realUserStatus: String?
    /// The password user name, when the account has a password.
    public var username: String?

    /// An account with the given fields.
    public init(
        id: String, user: String? = nil, name: Name? = nil, email: String? = nil, isPrivateEmail: Bool? = nil,
        realUserStatus: String? = nil, username: String? = nil
    ) {
        self.id = id
        self.user = user
        self.name = name
        self.email = email
        self.isPrivateEmail = isPrivateEmail
        self.realUserStatus = realUserStatus
        self.username = username
    }
}

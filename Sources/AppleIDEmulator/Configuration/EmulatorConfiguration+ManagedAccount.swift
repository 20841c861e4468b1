extension EmulatorConfiguration {
    /// What makes an Apple ID a Sign in with Apple at Work & School account (a managed Apple Account):
    /// the organization that manages it, the address it gives apps, and the apps it blocks.
    ///
    /// Such an account is never offered Hide My Email, its identity tokens carry no `is_private_email`,
    /// and an app the organization blocks is answered `error=access_denied` on the authorization redirect.
    ///
    /// ```json
    /// {"email": "j.appleseed@appleid.school.example", "password": "…",
    ///  "managed": {"organization": "Example School", "email": "j.appleseed@school.example", "blocked_apps": ["com.example.game"]}}
    /// ```
    public struct ManagedAccount: Sendable, Hashable, Codable {
        /// The organization's name, shown on the consent page and the portal.
        public var organization: String
        /// The organization's real address given to apps; `nil` gives apps no email at all.
        public var email: String?
        /// Bundle ids of apps the organization blocks (at start; the portal and the admin API switch them).
        public var blockedApps: [String]

        /// Creates a managed account's settings.
        public init(organization: String, email: String? = nil, blockedApps: [String] = []) {
            self.organization = organization
            self.email = email
            self.blockedApps = blockedApps
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case organization
            case email
            case blockedApps = "blocked_apps"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            organization = try container.decode(String.self, forKey: .organization)
            email = try container.decodeIfPresent(String.self, forKey: .email)
            blockedApps = try container.decodeIfPresent([String].self, forKey: .blockedApps) ?? []
        }
    }
}

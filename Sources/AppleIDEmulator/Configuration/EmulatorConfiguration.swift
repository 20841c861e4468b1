#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the emulator knows of the world: developer teams and their keys, apps, and Apple IDs.
///
/// Read from JSON in the shape below (every field validated, every problem reported at once), or
/// built in code and checked with ``validate()``.
///
/// ```json
/// {"admin_token": "…",
///  "teams": [{"team_id": "ABCDE12345", "keys": [{"key_id": "KEY1234567", "public_key_pem": "-----BEGIN PUBLIC KEY-----…"}]}],
///  "apps": [{"team_id": "ABCDE12345", "bundle_id": "com.example.app", "services_ids": ["com.example.app.web"],
///            "redirect_uris": ["https://app.example.com/auth/apple/callback"],
///            "notification_url": "https://app.example.com/apple/notifications",
///            "email_sources": ["example.com"], "allow_local_redirects": false}],
///  "apple_ids": [{"email": "alice@example.org", "password": "…", "first_name": "Alice", "last_name": "Appleseed"}]}
/// ```
///
/// ```swift
/// let configuration = try EmulatorConfiguration(json: Data(contentsOf: configURL))
/// ```
public struct EmulatorConfiguration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The bearer token the admin endpoints require; `nil` leaves them open (local development).
    public var adminToken: String?
    /// Developer teams and their client-secret keys.
    public var teams: [Team]
    /// Apps (primary App IDs) with their Services IDs and redirect URIs.
    public var apps: [App]
    /// The Apple IDs that can sign in.
    public var appleIDs: [AppleID]

    /// Creates a configuration in code; call ``validate()`` before use.
    public init(adminToken: String? = nil, teams: [Team], apps: [App], appleIDs: [AppleID]) {
        self.adminToken = adminToken
        self.teams = teams
        self.apps = apps
        self.appleIDs = appleIDs
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case adminToken = "admin_token"
        case teams
        case apps
        case appleIDs = "apple_ids"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        adminToken = try container.decodeIfPresent(String.self, forKey: .adminToken)
        teams = try container.decodeIfPresent([Team].self, forKey: .teams) ?? []
        apps = try container.decodeIfPresent([App].self, forKey: .apps) ?? []
        appleIDs = try container.decodeIfPresent([AppleID].self, forKey: .appleIDs) ?? []
    }

    /// The admin token is a secret: never printed.
    public var description: String {
        "EmulatorConfiguration(teams: \(teams.map(\.teamID)), apps: \(apps.map(\.bundleID)), apple_ids: \(appleIDs.count), admin_token: \(adminToken == nil ? "none" : "<redacted>"))"
    }
}

extension EmulatorConfiguration {
    /// A developer team.
    public struct Team: Sendable, Hashable, Codable {
        /// The 10-character team id (`iss` of client secrets).
        public var teamID: String
        /// The team's Sign in with Apple keys (public halves).
        public var keys: [Key]

        /// Creates a team.
        public init(teamID: String, keys: [Key]) {
            self.teamID = teamID
            self.keys = keys
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case teamID = "team_id"
            case keys
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            teamID = try container.decode(String.self, forKey: .teamID)
            keys = try container.decodeIfPresent([Key].self, forKey: .keys) ?? []
        }
    }

    /// The public half of a team's .p8 key.
    public struct Key: Sendable, Hashable, Codable {
        /// The 10-character key id (`kid` of client secrets).
        public var keyID: String
        /// The P-256 public key, PEM (`-----BEGIN PUBLIC KEY-----`).
        public var publicKeyPEM: String

        /// Creates a key entry.
        public init(keyID: String, publicKeyPEM: String) {
            self.keyID = keyID
            self.publicKeyPEM = publicKeyPEM
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case keyID = "key_id"
            case publicKeyPEM = "public_key_pem"
        }
    }

    /// An app (primary App ID) and the web clients grouped with it.
    public struct App: Sendable, Hashable, Codable {
        /// The team that owns the app (until an app transfer).
        public var teamID: String
        /// The bundle id: the client id of device sign-ins, and the `aud` of notifications.
        public var bundleID: String
        /// Services IDs: the client ids of web sign-ins.
        public var servicesIDs: [String]
        /// Redirect URIs registered for the Services IDs (exact match).
        public var redirectURIs: [String]
        /// Where server-to-server notifications are POSTed; `nil` sends none.
        public var notificationURL: String?
        /// Domains and addresses registered to send mail to relay addresses.
        public var emailSources: [String]
        /// Allows `http://` and loopback/`localhost` redirect and notification URIs (development only).
        public var allowLocalRedirects: Bool

        /// Creates an app.
        public init(
            teamID: String,
            bundleID: String,
            servicesIDs: [String] = [],
            redirectURIs: [String] = [],
            notificationURL: String? = nil,
            emailSources: [String] = [],
            allowLocalRedirects: Bool = false
        ) {
            self.teamID = teamID
            self.bundleID = bundleID
            self.servicesIDs = servicesIDs
            self.redirectURIs = redirectURIs
            self.notificationURL = notificationURL
            self.emailSources = emailSources
            self.allowLocalRedirects = allowLocalRedirects
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case teamID = "team_id"
            case bundleID = "bundle_id"
            case servicesIDs = "services_ids"
            case redirectURIs = "redirect_uris"
            case notificationURL = "notification_url"
            case emailSources = "email_sources"
            case allowLocalRedirects = "allow_local_redirects"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            teamID = try container.decode(String.self, forKey: .teamID)
            bundleID = try container.decode(String.self, forKey: .bundleID)
            servicesIDs = try container.decodeIfPresent([String].self, forKey: .servicesIDs) ?? []
            redirectURIs = try container.decodeIfPresent([String].self, forKey: .redirectURIs) ?? []
            notificationURL = try container.decodeIfPresent(String.self, forKey: .notificationURL)
            emailSources = try container.decodeIfPresent([String].self, forKey: .emailSources) ?? []
            allowLocalRedirects = try container.decodeIfPresent(Bool.self, forKey: .allowLocalRedirects) ?? false
        }

        /// Every client id of the app: the bundle id and the Services IDs.
        public var clientIDs: [String] { [bundleID] + servicesIDs }
    }

    /// An Apple ID that can sign in.
    public struct AppleID: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The Apple ID's email address (also its account name).
        public var email: String
        /// The password (compared in constant time; never logged).
        public var password: String
        /// Given name.
        public var firstName: String
        /// Family name.
        public var lastName: String
        /// Set for a Work & School (managed) account; `nil` for a personal Apple ID.
        public var managed: ManagedAccount?

        /// Creates an Apple ID.
        public init(email: String, password: String, firstName: String, lastName: String, managed: ManagedAccount? = nil) {
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
            self.managed = managed
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case email
            case password
            case firstName = "first_name"
            case lastName = "last_name"
            case managed
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            email = try container.decode(String.self, forKey: .email)
            password = try container.decode(String.self, forKey: .password)
            firstName = try container.decodeIfPresent(String.self, forKey: .firstName) ?? ""
            lastName = try container.decodeIfPresent(String.self, forKey: .lastName) ?? ""
            managed = try container.decodeIfPresent(ManagedAccount.self, forKey: .managed)
        }

        /// The password is a secret: never printed.
        public var description: String {
            "AppleID(\(email), \(firstName) \(lastName), password: <redacted>)"
        }
    }
}

/// One setting of a configuration document (the toolkit's `config.json`, the server's `juice.json`): its name in
/// the document, the environment variable that overrides it (`JUICE_<NAME>`), and whether it is a list (a
/// JSON array in the file, comma-separated in the environment).
///
/// Each setting is written once, here or in the server's table: the reader, the environment overlay and the
/// unknown-field check all take it from the table.
package struct ConfigurationField: Sendable, Hashable, CustomStringConvertible {
    /// The name in the document, e.g. `client_id`.
    package let name: String
    /// Whether the value is a list of strings.
    package let isList: Bool

    package init(_ name: String, list: Bool = false) {
        self.name = name
        self.isList = list
    }

    /// The environment variable that overrides it, e.g. `JUICE_CLIENT_ID`.
    package var environmentVariable: String { "JUICE_" + name.uppercased() }

    package var description: String { name }
}

extension ConfigurationField {
    /// The Services ID (web) or bundle id (native) the tokens are for.
    package static let clientID = Self("client_id")
    /// The 10-character Apple Developer team id.
    package static let teamID = Self("team_id")
    /// The 10-character id of the team's Sign in with Apple key.
    package static let keyID = Self("key_id")
    /// Where Apple sends the web flow's answer.
    package static let redirectURI = Self("redirect_uri")
    /// The scopes asked for: `name`, `email`.
    package static let scope = Self("scope")
    /// The team key's `.p8` file.
    package static let privateKeyPath = Self("private_key_path")
    /// The team key's PEM, inline.
    package static let privateKey = Self("private_key")
    /// Further client ids whose tokens are accepted (the first client id is used at Apple's endpoints).
    package static let additionalClientIDs = Self("additional_client_ids", list: true)
    /// Apple's base URL (an emulator's, in development and tests).
    package static let appleBaseURL = Self("apple_base_url")
    /// The issuer tokens must carry.
    package static let issuer = Self("issuer")

    /// The toolkit's settings, the table ``AppleSignInConfiguration`` reads.
    package static let toolkit: [Self] = [
        .clientID, .teamID, .keyID, .redirectURI, .scope, .privateKeyPath, .privateKey, .additionalClientIDs, .appleBaseURL, .issuer,
    ]
}

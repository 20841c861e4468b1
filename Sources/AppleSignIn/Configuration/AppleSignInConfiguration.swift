import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a relying party needs to talk to Apple: ids, the team's private key, and where Apple is.
///
/// Loads the `config.json` shape Apple developers already write:
///
/// ```json
/// {"client_id": "com.example.app.web", "team_id": "ABCDE12345", "key_id": "KEY1234567",
///  "redirect_uri": "https://app.example.com/auth/apple/callback", "scope": "name email",
///  "private_key_path": "AuthKey_KEY1234567.p8",
///  "additional_client_ids": ["com.example.app"]}
/// ```
///
/// ```swift
/// let configuration = try AppleSignInConfiguration(contentsOf: URL(fileURLWithPath: "config.json"))
/// ```
public struct AppleSignInConfiguration: Sendable {
    /// Apple's production host.
    public static let appleBaseURL = URL(string: "https://appleid.apple.com")!
    /// The issuer of Apple's identity tokens.
    public static let appleIssuer = "https://appleid.apple.com"

    /// The primary client id (usually the Services ID for web sign-in).
    public var clientID: String
    /// The 10-character team id.
    public var teamID: String
    /// The 10-character id of the team's Sign in with Apple key.
    public var keyID: String
    /// Where Apple sends the authorization response for web sign-in.
    public var redirectURI: URL?
    /// The scopes requested by default.
    public var scopes: [AuthorizeRequest.Scope]
    /// The team's P-256 private key (the .p8 file).
    public var privateKey: P256.Signing.PrivateKey
    /// Further accepted client ids (the app's bundle id, other Services IDs).
    public var additionalClientIDs: [String]
    /// Apple's base URL (an emulator's URL for local development).
    public var appleBaseURL: URL
    /// The expected `iss` of identity tokens.
    public var issuer: String

    /// Every accepted client id: ``clientID`` first, then ``additionalClientIDs``.
    public var clientIDs: [String] {
        var seen = Set<String>()
        return ([clientID] + additionalClientIDs).filter { seen.insert($0).inserted }
    }

    /// Creates a configuration from values already validated by the caller.
    public init(
        clientID: String,
        teamID: String,
        keyID: String,
        privateKey: P256.Signing.PrivateKey,
        redirectURI: URL? = nil,
        scopes: [AuthorizeRequest.Scope] = [.name, .email],
        additionalClientIDs: [String] = [],
        appleBaseURL: URL = Self.appleBaseURL,
        issuer: String = Self.appleIssuer
    ) {
        self.clientID = clientID
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.additionalClientIDs = additionalClientIDs
        self.appleBaseURL = appleBaseURL
        self.issuer = issuer
    }

    /// Loads and validates a `config.json` file; a relative `private_key_path` is read relative to the file.
    /// - Throws: ``ConfigurationError`` listing every problem.
    public init(contentsOf file: URL) throws(ConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ConfigurationError(field: "config", "cannot read \(file.path): \(Self.describe(error))")
        }
        try self.init(json: data, baseDirectory: file.deletingLastPathComponent())
    }

    /// Parses and validates a configuration document.
    /// - Parameters:
    ///   - json: The `config.json` bytes.
    ///   - baseDirectory: Where a relative `private_key_path` is resolved.
    /// - Throws: ``ConfigurationError`` listing every problem.
    public init(json: Data, baseDirectory: URL) throws(ConfigurationError) {
        var reader = ConfigurationReader(document: try ConfigurationReader.document(parsing: json))
        let configuration = Self.read(&reader, baseDirectory: baseDirectory)
        reader.rejectUnknownFields()
        guard reader.problems.isEmpty, let configuration else { throw ConfigurationError(reader.problems) }
        self = configuration
    }

    /// Reads the toolkit's fields of a configuration document with `reader` (which collects every problem);
    /// `nil` when one is missing or unusable. The caller rejects unknown fields and throws the problems.
    package static func read(_ reader: inout ConfigurationReader, baseDirectory: URL) -> AppleSignInConfiguration? {
        let clientID = reader.requiredString(.clientID)
        let teamID = reader.identifier(.teamID, kind: "team id")
        let keyID = reader.identifier(.keyID, kind: "key id")
        let redirectURI = reader.optionalURL(.redirectURI, requireHTTPS: true)
        let scopes = reader.scopes(.scope)
        let additionalClientIDs = reader.stringArray(.additionalClientIDs)
        let appleBaseURL = reader.optionalURL(.appleBaseURL, requireHTTPS: false) ?? Self.appleBaseURL
        let issuer = reader.optionalString(.issuer) ?? appleBaseURL.absoluteString.trimmingTrailingSlash
        let privateKey = reader.privateKey(baseDirectory: baseDirectory)
        guard let clientID, let teamID, let keyID, let privateKey else { return nil }
        return AppleSignInConfiguration(
            clientID: clientID,
            teamID: teamID,
            keyID: keyID,
            privateKey: privateKey,
            redirectURI: redirectURI,
            scopes: scopes,
            additionalClientIDs: additionalClientIDs,
            appleBaseURL: appleBaseURL,
            issuer: issuer
        )
    }

    /// Why a file could not be read, in the system's words ("No such file or directory", "Permission
    /// denied"): the POSIX error under FoundationEssentials' `CocoaError`, which has no localized text.
    static func describe(_ error: any Error) -> String {
        guard let posix = (error as? CocoaError)?.underlying as? POSIXError else { return String(describing: error) }
        return CLibrary.message(for: posix)
    }
}

extension String {
    var trimmingTrailingSlash: String {
        hasSuffix("/") ? String(dropLast()) : self
    }
}

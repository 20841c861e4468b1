import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings
import WebAuthn

extension ServerConfiguration {
    /// Values given on the command line; they win over the environment, which wins over the file.
    public struct Overrides: Sendable {
        /// `--host`.
        public var host: String?
        /// `--port`.
        public var port: Int?
        /// `--public-url`.
        public var publicURL: String?
        /// `--database`.
        public var database: String?

        /// Creates overrides; `nil` leaves a value to the environment or the file.
        public init(host: String? = nil, port: Int? = nil, publicURL: String? = nil, database: String? = nil) {
            self.host = host
            self.port = port
            self.publicURL = publicURL
            self.database = database
        }
    }

    /// Every field that may come from the environment as `JUICE_<FIELD>` (e.g. `JUICE_CLIENT_ID`).
    public static var environmentVariables: [String] { (ConfigurationField.toolkit + ConfigurationField.server).map(\.environmentVariable) }

    /// Whether the environment configures the server (any `JUICE_*` setting is present).
    public static func environmentConfigures(_ environment: [String: String]) -> Bool {
        environmentVariables.contains { environment[$0] != nil }
    }

    /// Loads the configuration: the file (if any), then `JUICE_*` environment variables, then `overrides`.
    ///
    /// - Parameters:
    ///   - file: A `juice.json`; `nil` reads only the environment and overrides.
    ///   - environment: The process environment.
    ///   - overrides: Command-line values.
    ///   - dataDirectory: Where the default SQLite database lives.
    /// - Throws: ``AppleSignIn/ConfigurationError`` listing every problem, each naming its field.
    public static func load(
        file: URL?, environment: [String: String], overrides: Overrides = Overrides(), dataDirectory: URL
    ) throws(ConfigurationError) -> ServerConfiguration {
        var document: [String: JSONValue] = [:]
        var baseDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let file {
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch {
                throw ConfigurationError(field: "config", "cannot read \(file.path)")
            }
            do {
                document = try ConfigurationReader.document(parsing: data)
            } catch {
                throw ConfigurationError(field: "config", "\(file.path) is not a JSON object")
            }
            baseDirectory = file.deletingLastPathComponent()
        }
        for field in ConfigurationField.toolkit + ConfigurationField.server {
            guard let value = environment[field.environmentVariable] else { continue }
            // A list's environment variable is comma-separated: the same list a file writes as an array.
            document[field.name] =
                field.isList
                ? .array(value.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 != .string("") })
                : .string(value)
        }
        if let host = overrides.host { document[ConfigurationField.host.name] = .string(host) }
        if let port = overrides.port { document[ConfigurationField.port.name] = .integer(Int64(port)) }
        if let publicURL = overrides.publicURL { document[ConfigurationField.publicURL.name] = .string(publicURL) }
        if let database = overrides.database { document[ConfigurationField.databaseURL.name] = .string(database) }

        var reader = ConfigurationReader(document: document, extraFields: ConfigurationField.server)
        func problem(_ field: ConfigurationField, _ message: String) { reader.problem(field, message) }
        func string(_ field: ConfigurationField) -> String? { reader.optionalString(field) }
        func integer(_ field: ConfigurationField, in range: ClosedRange<Int>) -> Int? { reader.integer(field, in: range) }

        // The server's fields.
        var publicURL: URL?
        if let text = string(.publicURL) {
            if let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host,
                !host.isEmpty,
                url.query == nil, url.fragment == nil
            {
                if scheme == "http" && !Self.isLoopback(host) {
                    problem(.publicURL, "must use https (plain http is accepted only for localhost and 127.0.0.1)")
                } else {
                    publicURL = url
                }
            } else {
                problem(.publicURL, "\"\(text.prefix(200))\" is not an absolute http(s) URL without query or fragment")
            }
        } else {
            problem(.publicURL, "is required: the URL people open, e.g. https://juice.example.com")
        }
        var database = DatabaseLocation.sqlite(path: dataDirectory.appendingPathComponent("juice.sqlite").path)
        if let text = string(.databaseURL) {
            do { database = try DatabaseLocation(parsing: text) } catch { problem(.databaseURL, error.reason) }
        }
        let host = string(.host) ?? "127.0.0.1"
        let port = integer(.port, in: 0...65535) ?? 8080
        let sessionLifetime = integer(.sessionLifetime, in: 60...31_536_000) ?? 7 * 86_400
        let cost = integer(.passwordHashCost, in: 4...31) ?? 12
        let defaults = HTTPTimeouts()
        let timeouts = HTTPTimeouts(
            idle: integer(.idleTimeout, in: 1...86_400).map { .seconds($0) } ?? defaults.idle,
            header: integer(.headerTimeout, in: 1...3600).map { .seconds($0) } ?? defaults.header,
            body: integer(.bodyTimeout, in: 1...3600).map { .seconds($0) } ?? defaults.body)
        let signUpLimit = integer(.signUpLimit, in: 1...1_000_000)
        let hashConcurrency = integer(.passwordHashConcurrency, in: 1...1024)
        var serverSecret: SymmetricKey?
        switch (string(.refreshTokenKey), string(.refreshTokenKeyPath)) {
        case (nil, nil):
            problem(.refreshTokenKey, "is required: 32 random bytes, base64 (e.g. `openssl rand -base64 32`), or refresh_token_key_path")
        case (.some, .some):
            problem(.refreshTokenKey, "give either refresh_token_key or refresh_token_key_path, not both")
        case (let inline?, nil):
            serverSecret = Self.parseKey(inline)
            if serverSecret == nil { problem(.refreshTokenKey, "must be 32 bytes, base64-encoded") }
        case (nil, let path?):
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
            if let text = try? String(contentsOf: url, encoding: .utf8) {
                serverSecret = Self.parseKey(text)
                if serverSecret == nil { problem(.refreshTokenKeyPath, "\(url.path) must hold 32 bytes, base64-encoded") }
            } else {
                problem(.refreshTokenKeyPath, "cannot read \(url.path)")
            }
        }
        var trustedProxies = TrustedProxies.none
        if let entries = reader.list(
            .trustedProxies, message: "must be a list of IP addresses or CIDR ranges (JUICE_TRUSTED_PROXIES: comma-separated)")
        {
            do {
                trustedProxies = try TrustedProxies(parsing: entries)
            } catch {
                problem(.trustedProxies, error.description)
            }
        }
        let requireNonce = reader.bool(.requireNonce) ?? false
        let passkeyRelyingPartyID = string(.passkeyRelyingPartyID).map { $0.lowercased() }
        if let rpID = passkeyRelyingPartyID, let host = publicURL?.host?.lowercased() {
            if rpID.isEmpty || !(host == rpID || host.hasSuffix("." + rpID)) {
                problem(.passkeyRelyingPartyID, "must be the public URL's host \(host) or a domain it is under")
            }
        }
        var passkeyOrigins: [String] = []
        for entry in reader.list(.passkeyOrigins, message: "must be a list of origins (JUICE_PASSKEY_ORIGINS: comma-separated)") ?? [] {
            if entry.contains(":"), entry.utf8.count <= 512, !entry.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
                passkeyOrigins.append(entry)
            } else {
                problem(.passkeyOrigins, "\"\(entry.prefix(100))\" is not an origin (https://host or android:apk-key-hash:…)")
            }
        }
        var passkeyRelatedOrigins: [String] = []
        if let entries = reader.list(
            .passkeyRelatedOrigins, message: "must be a list of https origins (JUICE_PASSKEY_RELATED_ORIGINS: comma-separated)")
        {
            do {
                passkeyRelatedOrigins = try RelatedOrigins(entries).origins
            } catch {
                problem(.passkeyRelatedOrigins, error.description)
            }
        }
        var mail: MailSettings?
        switch (string(.smtpURL), string(.mailFrom)) {
        case (nil, nil):
            break
        case (let url?, let from?):
            do { mail = try MailSettings(smtpURL: url, mailFrom: from) } catch {
                problem(error.field == ConfigurationField.mailFrom.name ? .mailFrom : .smtpURL, error.reason)
            }
        case (nil, .some):
            problem(.smtpURL, "is required with mail_from: the SMTP server Juice sends its mail through")
        case (.some, nil):
            problem(.mailFrom, "is required with smtp_url: the sender of Juice's mail, e.g. \"Juice <hello@juice.example.com>\"")
        }

        // The toolkit's fields, read from the same document by the same reader.
        let apple = AppleSignInConfiguration.read(&reader, baseDirectory: baseDirectory)
        reader.rejectUnknownFields()
        if let apple, let publicURL, let redirect = apple.redirectURI {
            let expected = publicURL.absoluteString.trimmingSuffix("/") + "/auth/apple/callback"
            if redirect.absoluteString != expected {
                problem(.redirectURI, "must be \(expected) (the callback under public_url), not \(redirect.absoluteString)")
            }
        }
        guard reader.problems.isEmpty, let apple, let publicURL, let serverSecret else { throw ConfigurationError(reader.problems) }
        var configuration = ServerConfiguration(
            apple: apple,
            publicURL: publicURL,
            host: host,
            port: port,
            database: database,
            serverSecret: serverSecret,
            sessionLifetime: TimeInterval(sessionLifetime),
            passwordHashCost: cost
        )
        configuration.mail = mail
        configuration.trustedProxies = trustedProxies
        configuration.requireNonce = requireNonce
        configuration.httpTimeouts = timeouts
        if let signUpLimit { configuration.signUpLimit = signUpLimit }
        configuration.passwordHashConcurrency = hashConcurrency
        configuration.passkeyRelyingPartyID = passkeyRelyingPartyID
        configuration.passkeyOrigins = passkeyOrigins
        configuration.passkeyRelatedOrigins = passkeyRelatedOrigins
        return configuration
    }

    /// 32 bytes from base64 (standard or url-safe), or `nil`.
    static func parseKey(_ text: String) -> SymmetricKey? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = Data(base64Encoded: trimmed).map(Array.init) ?? Base64URL.decode(trimmed)
        guard let bytes, bytes.count == 32 else { return nil }
        return SymmetricKey(data: bytes)
    }

    static func isLoopback(_ host: String) -> Bool {
        ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

import Crypto
// Foundation, not FoundationEssentials: `JSONSerialization`, which reads the untyped document whose unknown
// fields are reported.
import Foundation
import JuiceEncodings

extension EmulatorConfiguration {
    /// Reads and validates a configuration from JSON.
    /// - Throws: ``EmulatorConfigurationError`` listing every problem: malformed JSON, unknown or
    ///   mistyped fields, and every rule ``validate()`` checks.
    public init(json: Data) throws(EmulatorConfigurationError) {
        var (configuration, problems) = try Self.decoded(json: json)
        self = configuration
        do {
            try validate()
        } catch {
            problems += error.problems
        }
        if !problems.isEmpty { throw EmulatorConfigurationError(problems: problems) }
    }

    /// The JSON decoded into a configuration, and its unknown fields; throws when it cannot be decoded at all.
    static func decoded(json: Data) throws(EmulatorConfigurationError) -> (EmulatorConfiguration, [EmulatorConfigurationError.Problem]) {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw EmulatorConfigurationError(problems: [.init(field: "(file)", message: "is not valid JSON")])
        }
        guard document is [String: Any] else {
            throw EmulatorConfigurationError(problems: [.init(field: "(file)", message: "must be a JSON object")])
        }
        let problems = Self.unknownFields(in: document)
        do {
            return (try JSONDecoder().decode(EmulatorConfiguration.self, from: json), problems)
        } catch let error as DecodingError {
            throw EmulatorConfigurationError(problems: problems + [Self.problem(for: error)])
        } catch {
            throw EmulatorConfigurationError(problems: problems + [.init(field: "(file)", message: "could not be read")])
        }
    }

    /// Encodes the configuration as pretty-printed JSON in the documented shape.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Checks every rule and reports every problem at once.
    /// - Throws: ``EmulatorConfigurationError``.
    public func validate() throws(EmulatorConfigurationError) {
        var problems: [EmulatorConfigurationError.Problem] = []
        func add(_ field: String, _ message: String) { problems.append(.init(field: field, message: message)) }

        if let adminToken, adminToken.isEmpty || adminToken.count > 512 {
            add("admin_token", "must be 1 to 512 characters, or absent to leave the admin endpoints open")
        }
        var teamIDs = Set<String>()
        for (index, team) in teams.enumerated() {
            let path = "teams[\(index)]"
            if !Self.isAppleIdentifier(team.teamID) {
                add("\(path).team_id", "\(Self.quoted(team.teamID)) must be 10 uppercase letters or digits")
            } else if !teamIDs.insert(team.teamID).inserted {
                add("\(path).team_id", "\(Self.quoted(team.teamID)) appears twice")
            }
            var keyIDs = Set<String>()
            for (keyIndex, key) in team.keys.enumerated() {
                let keyPath = "\(path).keys[\(keyIndex)]"
                if !Self.isAppleIdentifier(key.keyID) {
                    add("\(keyPath).key_id", "\(Self.quoted(key.keyID)) must be 10 uppercase letters or digits")
                } else if !keyIDs.insert(key.keyID).inserted {
                    add("\(keyPath).key_id", "\(Self.quoted(key.keyID)) appears twice in this team")
                }
                if (try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)) == nil {
                    add("\(keyPath).public_key_pem", "is not a PEM P-256 public key (\"-----BEGIN PUBLIC KEY-----\")")
                }
            }
        }
        var clientIDs = Set<String>()
        for (index, app) in apps.enumerated() {
            let path = "apps[\(index)]"
            if !teamIDs.contains(app.teamID) {
                add("\(path).team_id", "\(Self.quoted(app.teamID)) is not one of the teams")
            }
            for (field, clientID) in [("bundle_id", app.bundleID)] + app.servicesIDs.enumerated().map({ ("services_ids[\($0.offset)]", $0.element) })
            {
                if !Self.isReverseDNS(clientID) {
                    add("\(path).\(field)", "\(Self.quoted(clientID)) must be a reverse-DNS identifier like com.example.app")
                } else if !clientIDs.insert(clientID).inserted {
                    add("\(path).\(field)", "\(Self.quoted(clientID)) is already a client id of another app or of this one")
                }
            }
            if !app.redirectURIs.isEmpty && app.servicesIDs.isEmpty {
                add("\(path).redirect_uris", "needs at least one Services ID (services_ids) to be used with")
            }
            for (uriIndex, uri) in app.redirectURIs.enumerated() {
                if let message = RedirectURIRule.problem(with: uri, allowLocal: app.allowLocalRedirects) {
                    add("\(path).redirect_uris[\(uriIndex)]", message)
                }
            }
            if let url = app.notificationURL, let message = RedirectURIRule.problem(with: url, allowLocal: app.allowLocalRedirects) {
                add("\(path).notification_url", message)
            }
            for (sourceIndex, source) in app.emailSources.enumerated() where !Self.isEmailSource(source) {
                add(
                    "\(path).email_sources[\(sourceIndex)]",
                    "\(Self.quoted(source)) must be a domain (example.com) or an address (noreply@example.com)")
            }
        }
        var emails = Set<String>()
        for (index, appleID) in appleIDs.enumerated() {
            let path = "apple_ids[\(index)]"
            if !Self.isEmail(appleID.email) {
                add("\(path).email", "\(Self.quoted(appleID.email)) is not an email address")
            } else if !emails.insert(appleID.email.lowercased()).inserted {
                add("\(path).email", "\(Self.quoted(appleID.email)) appears twice")
            }
            if appleID.password.isEmpty || appleID.password.count > 256 {
                add("\(path).password", "must be 1 to 256 characters")
            }
            // Names are stored text (StoredTextRule): no control characters, lengths in Unicode scalars and bytes.
            for (field, name) in [("first_name", appleID.firstName), ("last_name", appleID.lastName)] {
                do {
                    try StoredTextRule.name.check(name)
                } catch {
                    add("\(path).\(field)", error.reason)
                }
            }
            if let managed = appleID.managed {
                let organization = StoredTextRule.trimmingSpaces(managed.organization)
                do {
                    try StoredTextRule.organization.check(organization)
                    if organization.isEmpty {
                        add("\(path).managed.organization", "must be 1 to \(StoredTextRule.organization.maximumScalars) characters")
                    }
                } catch {
                    add("\(path).managed.organization", error.reason)
                }
                if let email = managed.email, !Self.isEmail(email) {
                    add("\(path).managed.email", "\(Self.quoted(email)) is not an email address")
                }
                for (appIndex, bundleID) in managed.blockedApps.enumerated() where !apps.contains(where: { $0.bundleID == bundleID }) {
                    add("\(path).managed.blocked_apps[\(appIndex)]", "\(Self.quoted(bundleID)) is not the bundle_id of a configured app")
                }
            }
        }
        if !problems.isEmpty { throw EmulatorConfigurationError(problems: problems) }
    }

    // MARK: - Rules

    static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    static func isReverseDNS(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 155, labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == 0x2D || $0 == 0x5F }
        }
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, isDomain(parts[1]) else { return false }
        return parts[0].utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 }
    }

    static func isDomain(_ text: some StringProtocol) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty && label.utf8.count <= 63 && label.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == 0x2D }
            }
    }

    static func isEmailSource(_ text: String) -> Bool {
        text.contains("@") ? isEmail(text) : isDomain(text)
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.prefix(80) + (text.count > 80 ? "…" : "") + "\""
    }

    // MARK: - JSON shape

    private static func unknownFields(in document: Any) -> [EmulatorConfigurationError.Problem] {
        var problems: [EmulatorConfigurationError.Problem] = []
        func check(_ object: Any, path: String, known: [String]) {
            guard let dictionary = object as? [String: Any] else { return }
            for key in dictionary.keys.sorted() where !known.contains(key) {
                problems.append(
                    .init(field: path.isEmpty ? key : "\(path).\(key)", message: "is not a known field (known: \(known.joined(separator: ", ")))"))
            }
        }
        func each(_ object: Any, _ key: String, path: String, known: [String], then nested: ((Any, String) -> Void)? = nil) {
            guard let list = (object as? [String: Any])?[key] as? [Any] else { return }
            for (index, element) in list.enumerated() {
                let elementPath = (path.isEmpty ? "" : path + ".") + "\(key)[\(index)]"
                check(element, path: elementPath, known: known)
                nested?(element, elementPath)
            }
        }
        check(document, path: "", known: CodingKeys.allCases.map(\.rawValue))
        each(document, "teams", path: "", known: Team.CodingKeys.allCases.map(\.rawValue)) { team, path in
            each(team, "keys", path: path, known: Key.CodingKeys.allCases.map(\.rawValue))
        }
        each(document, "apps", path: "", known: App.CodingKeys.allCases.map(\.rawValue))
        each(document, "apple_ids", path: "", known: AppleID.CodingKeys.allCases.map(\.rawValue)) { appleID, path in
            if let managed = (appleID as? [String: Any])?["managed"] {
                check(managed, path: path + ".managed", known: ManagedAccount.CodingKeys.allCases.map(\.rawValue))
            }
        }
        return problems
    }

    private static func problem(for error: DecodingError) -> EmulatorConfigurationError.Problem {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "(file)" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            return .init(field: parent == "(file)" ? key.stringValue : "\(parent).\(key.stringValue)", message: "is required")
        case .typeMismatch(let type, let context):
            return .init(field: path(context.codingPath), message: "must be \(describe(type))")
        case .valueNotFound(let type, let context):
            return .init(field: path(context.codingPath), message: "must be \(describe(type)), not null")
        case .dataCorrupted(let context):
            return .init(field: path(context.codingPath), message: "is not valid")
        @unknown default:
            return .init(field: "(file)", message: "could not be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is [String].Type: return "an array of strings"
        default:
            let name = String(describing: type)
            return name.hasPrefix("Array") ? "an array" : (name.contains("Dictionary") ? "an object" : "a \(name)")
        }
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || (self >= 0x30 && self <= 0x39)
    }
}

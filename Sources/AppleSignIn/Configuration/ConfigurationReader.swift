import Crypto
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads fields of a configuration document, collecting every problem instead of stopping at the first.
///
/// The one reader of JSON configuration in the toolkit and the server: `AppleSignInConfiguration` reads the
/// toolkit's fields with it, and the server its own fields of the same document (``extraFields``).
package struct ConfigurationReader {
    /// The toolkit's settings, by name.
    static let knownFields = Set(ConfigurationField.toolkit.map(\.name))

    package let document: [String: JSONValue]
    package private(set) var problems: [ConfigurationError.Problem] = []
    /// Fields beyond the toolkit's own that the caller (e.g. the server) reads itself.
    var extraFields: Set<String> = []

    package init(document: [String: JSONValue], extraFields: some Sequence<ConfigurationField> = []) {
        self.document = document
        self.extraFields = Set(extraFields.map(\.name))
    }

    /// The object in a configuration file's bytes, or a `config` problem.
    package static func document(parsing json: some Collection<UInt8>) throws(ConfigurationError) -> [String: JSONValue] {
        guard case .object(let document)? = try? JSONParser.parse(Array(json)) else {
            throw ConfigurationError(field: "config", "is not a JSON object")
        }
        return document
    }

    package mutating func problem(_ field: ConfigurationField, _ message: String) {
        problems.append(.init(field: field.name, message: message))
    }

    /// A whole number in `range`, written as a JSON number or as a string of digits (the environment's).
    package mutating func integer(_ field: ConfigurationField, in range: ClosedRange<Int>) -> Int? {
        guard let value = document[field.name], value != .null else { return nil }
        let number: Int? =
            switch value {
            case .integer(let integer): Int(exactly: integer)
            // Exactly, or not at all: 1e22 or 8080.5 is no port.
            case .number(let double): Int(exactly: double)
            case .string(let text): Int(text.trimmingHorizontalSpace())
            default: nil
            }
        guard let number, range.contains(number) else {
            problem(field, "must be a whole number between \(range.lowerBound) and \(range.upperBound)")
            return nil
        }
        return number
    }

    /// `true` or `false`, as JSON or as a string (the environment's).
    package mutating func bool(_ field: ConfigurationField) -> Bool? {
        guard let value = document[field.name], value != .null else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .string(let text) where ["true", "false"].contains(text.lowercased()): return text.lowercased() == "true"
        default:
            problem(field, "must be true or false")
            return nil
        }
    }

    /// A list of strings (a JSON array of strings), entries trimmed and empty ones dropped; `nil` when
    /// absent, or not a list (a problem: `message`).
    package mutating func list(_ field: ConfigurationField, message: String) -> [String]? {
        guard let value = document[field.name], value != .null else { return nil }
        guard case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
            problem(field, message)
            return nil
        }
        return items.compactMap { $0.stringValue?.trimmingHorizontalSpace() }.filter { !$0.isEmpty }
    }

    package mutating func optionalString(_ field: ConfigurationField) -> String? {
        guard let value = document[field.name], value != .null else { return nil }
        guard let text = value.stringValue else {
            problem(field, "must be a string")
            return nil
        }
        return text
    }

    mutating func requiredString(_ field: ConfigurationField) -> String? {
        guard let text = optionalString(field) else {
            if document[field.name] == nil || document[field.name] == .null { problem(field, "is required") }
            return nil
        }
        guard !text.trimmingHorizontalSpace().isEmpty else {
            problem(field, "must not be empty")
            return nil
        }
        return text
    }

    /// A 10-character team or key id: uppercase letters and digits.
    mutating func identifier(_ field: ConfigurationField, kind: String) -> String? {
        guard let text = requiredString(field) else { return nil }
        guard text.count == 10 else {
            problem(field, "a \(kind) has 10 characters; \"\(text.prefix(40))\" has \(text.count)")
            return nil
        }
        guard text.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
            problem(field, "a \(kind) has only uppercase letters and digits; \"\(text)\" has others")
            return nil
        }
        return text
    }

    mutating func optionalURL(_ field: ConfigurationField, requireHTTPS: Bool) -> URL? {
        guard let text = optionalString(field) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            problem(field, "\"\(text.prefix(200))\" is not an absolute URL")
            return nil
        }
        guard scheme == "https" || scheme == "http" else {
            problem(field, "must be an http or https URL, not \(scheme)")
            return nil
        }
        if requireHTTPS && scheme == "http" && !Self.isLoopback(host) {
            problem(field, "must use https (plain http is accepted only for localhost)")
            return nil
        }
        if url.fragment != nil {
            problem(field, "must not have a fragment")
            return nil
        }
        return url
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "127.0.0.1" || host == "::1" || host == "[::1]"
    }

    mutating func stringArray(_ field: ConfigurationField) -> [String] {
        guard let value = document[field.name], value != .null else { return [] }
        guard case .array(let entries) = value else {
            problem(field, "must be an array of strings")
            return []
        }
        let strings = entries.compactMap(\.stringValue).filter { !$0.isEmpty }
        if strings.count != entries.count { problem(field, "must contain only non-empty strings") }
        return strings
    }

    /// `"name email"` or `["name", "email"]`; defaults to both.
    mutating func scopes(_ field: ConfigurationField) -> [AuthorizeRequest.Scope] {
        guard let value = document[field.name], value != .null else { return [.name, .email] }
        let names: [String]
        switch value {
        case .string(let text): names = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        case .array(let entries) where entries.allSatisfy({ $0.stringValue != nil }): names = entries.compactMap(\.stringValue)
        default:
            problem(field, "must be a space-separated string or an array, e.g. \"name email\"")
            return []
        }
        var scopes: [AuthorizeRequest.Scope] = []
        for name in names {
            guard let scope = AuthorizeRequest.Scope(rawValue: name) else {
                problem(field, "unknown scope \"\(name.prefix(40))\"; Apple knows \"name\" and \"email\"")
                continue
            }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        return scopes
    }

    /// The P-256 key from `private_key_path` or inline `private_key` (exactly one of them).
    mutating func privateKey(baseDirectory: URL) -> P256.Signing.PrivateKey? {
        let path = optionalString(.privateKeyPath)
        let inline = optionalString(.privateKey)
        let pem: String
        let origin: ConfigurationField
        switch (path, inline) {
        case (nil, nil):
            problem(.privateKeyPath, "is required (or give the PEM inline as \"private_key\")")
            return nil
        case (.some, .some):
            problem(.privateKey, "give either \"private_key_path\" or \"private_key\", not both")
            return nil
        case (let path?, nil):
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
                problem(.privateKeyPath, "cannot read the key file \(url.path)")
                return nil
            }
            pem = text
            origin = .privateKeyPath
        case (nil, let text?):
            pem = text
            origin = .privateKey
        }
        do {
            return try TeamPrivateKey.parse(pem: pem)
        } catch {
            problem(origin, error.reason)
            return nil
        }
    }

    package mutating func rejectUnknownFields() {
        for name in document.keys.sorted() where !Self.knownFields.contains(name) && !extraFields.contains(name) {
            problems.append(.init(field: name, message: "is not a known setting"))
        }
    }
}

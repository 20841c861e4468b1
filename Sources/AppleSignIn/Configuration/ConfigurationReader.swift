import Crypto
import Foundation

/// Reads fields of a configuration document, collecting every problem instead of stopping at the first.
struct ConfigurationReader {
    static let knownFields: Set<String> = [
        "client_id", "team_id", "key_id", "redirect_uri", "scope", "private_key_path", "private_key",
        "additional_client_ids", "apple_base_url", "issuer",
    ]

    let document: [String: JSONValue]
    var problems: [ConfigurationError.Problem] = []
    /// Fields beyond the toolkit's own that the caller (e.g. the server) reads itself.
    var extraFields: Set<String> = []

    init(document: [String: JSONValue], extraFields: Set<String> = []) {
        self.document = document
        self.extraFields = extraFields
    }

    mutating func problem(_ field: String, _ message: String) {
        problems.append(.init(field: field, message: message))
    }

    mutating func optionalString(_ field: String) -> String? {
        guard let value = document[field], value != .null else { return nil }
        guard let text = value.stringValue else {
            problem(field, "must be a string")
            return nil
        }
        return text
    }

    mutating func requiredString(_ field: String) -> String? {
        guard let text = optionalString(field) else {
            if document[field] == nil || document[field] == .null { problem(field, "is required") }
            return nil
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem(field, "must not be empty")
            return nil
        }
        return text
    }

    /// A 10-character team or key id: uppercase letters and digits.
    mutating func identifier(_ field: String, kind: String) -> String? {
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

    mutating func optionalURL(_ field: String, requireHTTPS: Bool) -> URL? {
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

    mutating func stringArray(_ field: String) -> [String] {
        guard let value = document[field], value != .null else { return [] }
        guard case .array(let entries) = value else {
            problem(field, "must be an array of strings")
            return []
        }
        let strings = entries.compactMap(\.stringValue).filter { !$0.isEmpty }
        if strings.count != entries.count { problem(field, "must contain only non-empty strings") }
        return strings
    }

    /// `"name email"` or `["name", "email"]`; defaults to both.
    mutating func scopes(_ field: String) -> [AuthorizeRequest.Scope] {
        guard let value = document[field], value != .null else { return [.name, .email] }
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
        let path = optionalString("private_key_path")
        let inline = optionalString("private_key")
        let pem: String
        let origin: String
        switch (path, inline) {
        case (nil, nil):
            problem("private_key_path", "is required (or give the PEM inline as \"private_key\")")
            return nil
        case (.some, .some):
            problem("private_key", "give either \"private_key_path\" or \"private_key\", not both")
            return nil
        case (let path?, nil):
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
                problem("private_key_path", "cannot read the key file \(url.path)")
                return nil
            }
            pem = text
            origin = "private_key_path"
        case (nil, let text?):
            pem = text
            origin = "private_key"
        }
        do {
            return try TeamPrivateKey.parse(pem: pem)
        } catch {
            problem(origin, error.reason)
            return nil
        }
    }

    mutating func rejectUnknownFields() {
        for field in document.keys.sorted() where !Self.knownFields.contains(field) && !extraFields.contains(field) {
            problem(field, "is not a known setting")
        }
    }
}

import JuiceEncodings

/// Parses the `scope` parameter: space-separated, only `name` and `email` (`openid` tolerated), no duplicates.
enum AuthorizationScopes {
    static func parse(_ text: String?) throws(OAuthError) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        var scopes: [String] = []
        for scope in text.split(whereSeparator: { $0 == " " || $0 == "+" }).map(String.init) {
            switch scope {
            case "name", "email":
                if !scopes.contains(scope) { scopes.append(scope) }
            case "openid":
                continue
            default:
                throw .invalidScope("scope may contain only name and email")
            }
        }
        return scopes.sorted { $0 == "name" && $1 == "email" }
    }

    /// `share` or `hide`; absent means share.
    static func emailChoice(_ text: String?) throws(OAuthError) -> EmailChoice? {
        guard let text, !text.isEmpty else { return nil }
        guard let choice = EmailChoice(rawValue: text) else { throw .invalidRequest("email_choice must be share or hide") }
        return choice
    }

    /// A name field: at most 64 characters.
    static func name(_ text: String?, field: String) throws(OAuthError) -> String? {
        guard let text else { return nil }
        if let violation = nameViolation(text) { throw .invalidRequest("\(field) " + violation.reason) }
        return text
    }

    /// Why a name a person typed breaks ``StoredTextRule/name`` (a control character, over 64 Unicode
    /// scalars or 256 bytes), or `nil`.
    static func nameViolation(_ text: String?) -> StoredTextViolation? {
        guard let text else { return nil }
        do {
            try StoredTextRule.name.check(text)
            return nil
        } catch {
            return error
        }
    }
}

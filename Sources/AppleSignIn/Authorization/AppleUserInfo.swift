import JuiceEncodings

/// The once-only `user` object Apple sends on the first authorization of an app by a person.
///
/// Apple sends it as a JSON *string*: `{"name":{"firstName":"…","lastName":"…"},"email":"…"}`, with
/// only the scopes granted. Store it at once: Apple never sends it again.
public struct AppleUserInfo: Sendable, Hashable, Codable {
    /// The person's name as they chose to share it.
    public struct Name: Sendable, Hashable, Codable {
        /// Given name.
        public var firstName: String?
        /// Family name.
        public var lastName: String?

        public init(firstName: String?, lastName: String?) {
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    /// The name, if the `name` scope was granted.
    public var name: Name?
    /// The email (real or relay), if the `email` scope was granted.
    public var email: String?

    public init(name: Name?, email: String?) {
        self.name = name
        self.email = email
    }

    /// Parses the `user` form field.
    init(json text: String) throws(AuthorizationResponseError) {
        guard case .object(let object)? = try? JSONParser.parse(text) else {
            throw AuthorizationResponseError(.malformedUser, "the \"user\" field is not a JSON object")
        }
        func string(_ value: JSONValue?, _ field: String) throws(AuthorizationResponseError) -> String? {
            switch value {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw AuthorizationResponseError(.malformedUser, "\"\(field)\" in the \"user\" field is not a string")
            }
        }
        if let nameValue = object["name"], nameValue != .null {
            guard case .object(let name) = nameValue else {
                throw AuthorizationResponseError(.malformedUser, "\"name\" in the \"user\" field is not an object")
            }
            self.name = Name(firstName: try string(name["firstName"], "name.firstName"), lastName: try string(name["lastName"], "name.lastName"))
        } else {
            self.name = nil
        }
        self.email = try string(object["email"], "email")
    }
}

/// A validated `/auth/authorize` request. Validation order matters: the client and the redirect URI
/// are checked first, and until both are known good nothing is ever sent to the redirect URI.
struct ValidatedAuthorizeRequest: Sendable {
    enum ResponseMode: String, Sendable {
        case query
        case fragment
        case formPost = "form_post"
        /// Sign in with Apple JS in a popup: the answer is posted to the opener (``WebMessage``).
        case webMessage = "web_message"
    }

    let client: RegisteredClient
    let redirectURI: String
    let responseType: String
    let includeIDToken: Bool
    let responseMode: ResponseMode
    let scopes: [String]
    let state: String?
    let nonce: String?
    /// Sign in with Apple JS's id for its popup, echoed in the ``WebMessage``.
    let frameID: String?

    /// The longest `state` or `nonce` accepted.
    static let maximumValueLength = 1024

    static func validate(_ fields: FormFields, directory: ClientDirectory) async throws -> ValidatedAuthorizeRequest {
        guard let clientID = fields.nonEmpty("client_id") else { throw OAuthError.invalidRequest("client_id is required") }
        guard let client = try await directory.client(clientID) else { throw OAuthError.invalidClient("client_id is not registered") }
        guard client.kind == .services else {
            throw OAuthError.invalidClient("web sign-in needs a Services ID as client_id, not a bundle id")
        }
        guard let redirectURI = fields.nonEmpty("redirect_uri") else { throw OAuthError.invalidRequest("redirect_uri is required") }
        guard client.app.redirectURIs.contains(redirectURI) else {
            // Apple's answer: "invalid_request – Invalid web redirect url."
            throw OAuthError.invalidRequest("redirect_uri is not registered for this client")
        }
        let typeParts = Set((fields["response_type"] ?? "").split(separator: " ").map(String.init))
        let includeIDToken: Bool
        switch typeParts {
        case ["code"]: includeIDToken = false
        case ["code", "id_token"]: includeIDToken = true
        default: throw OAuthError.invalidRequest("response_type must be code or code id_token")
        }
        let mode: ResponseMode
        if let text = fields.nonEmpty("response_mode") {
            guard let parsed = ResponseMode(rawValue: text) else {
                throw OAuthError.invalidRequest("response_mode must be query, fragment, form_post or web_message")
            }
            mode = parsed
        } else {
            mode = includeIDToken ? .fragment : .query
        }
        if includeIDToken && mode == .query {
            throw OAuthError.invalidRequest("an id_token cannot be returned with response_mode=query")
        }
        let scopes = try AuthorizationScopes.parse(fields["scope"])
        if !scopes.isEmpty && mode != .formPost && mode != .webMessage {
            throw OAuthError.invalidRequest("response_mode must be form_post or web_message when name or email scope is requested")
        }
        let frameID = fields.nonEmpty("frame_id")
        if let frameID, !WebMessage.isValidFrameID(frameID) {
            throw OAuthError.invalidRequest("frame_id must be 1 to \(WebMessage.maximumFrameIDLength) letters, digits, - or _")
        }
        for name in ["state", "nonce"] where (fields[name]?.utf8.count ?? 0) > maximumValueLength {
            throw OAuthError.invalidRequest("\(name) is longer than \(maximumValueLength) bytes")
        }
        return ValidatedAuthorizeRequest(
            client: client,
            redirectURI: redirectURI,
            responseType: includeIDToken ? "code id_token" : "code",
            includeIDToken: includeIDToken,
            responseMode: mode,
            scopes: scopes,
            state: fields.nonEmpty("state"),
            nonce: fields.nonEmpty("nonce"),
            frameID: frameID
        )
    }

    /// The original parameters, carried as hidden fields from page to page.
    var hiddenFields: [(String, String)] {
        var fields = [
            ("client_id", client.clientID), ("redirect_uri", redirectURI), ("response_type", responseType),
            ("response_mode", responseMode.rawValue),
        ]
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        if let state { fields.append(("state", state)) }
        if let nonce { fields.append(("nonce", nonce)) }
        if let frameID { fields.append(("frame_id", frameID)) }
        return fields
    }
}

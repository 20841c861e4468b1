import JuiceEncodings

/// Apple's answer to an authorization request, as posted to the redirect URI (`form_post`) or
/// carried in its query or fragment.
///
/// ```swift
/// let response = try AuthorizationResponse(formBody: String(buffer: request.body))
/// try consumeState(response.state)
/// let token = try await verifier.verify(response.idToken!, nonceClaim: nonce, authorizationCode: response.code)
/// ```
public struct AuthorizationResponse: Sendable, Hashable {
    /// The authorization code (single use, valid five minutes).
    public let code: String
    /// The identity token, when `code id_token` was asked.
    public let idToken: String?
    /// The state sent with the request.
    public let state: String
    /// Name and email: present on the first authorization only.
    public let user: AppleUserInfo?

    /// The largest body accepted.
    public static let maximumBodySize = 64 * 1024

    /// Parses a form-urlencoded body (or query string).
    /// - Throws: ``AuthorizationResponseError`` — ``AuthorizationResponseError/Code/userCancelled`` when the
    ///   person cancelled, ``AuthorizationResponseError/Code/appleError`` for any other Apple error, or a
    ///   description of what is missing or malformed.
    public init(formBody: String) throws(AuthorizationResponseError) {
        guard formBody.utf8.count <= Self.maximumBodySize else {
            throw AuthorizationResponseError(.malformedBody, "the body is larger than \(Self.maximumBodySize) bytes")
        }
        guard let fields = FormURLEncoding.decode(formBody) else {
            throw AuthorizationResponseError(.malformedBody, "the body is not valid form-urlencoded UTF-8")
        }
        try self.init(fields: fields)
    }

    /// Parses already-decoded fields; a field given twice is refused.
    public init(fields: [(String, String)]) throws(AuthorizationResponseError) {
        var values: [String: String] = [:]
        for (name, value) in fields {
            guard values.updateValue(value, forKey: name) == nil else {
                throw AuthorizationResponseError(.malformedBody, "the field \"\(name.prefix(40))\" appears more than once")
            }
        }
        let state = values["state"].flatMap { $0.isEmpty ? nil : $0 }
        if let error = values["error"] {
            if error == AuthorizationResponseError.Code.userCancelled.description {
                throw AuthorizationResponseError(.userCancelled, "the person cancelled Sign in with Apple", state: state, appleError: error)
            }
            throw AuthorizationResponseError(.appleError, "Apple answered \"\(error.prefix(80))\"", state: state, appleError: error)
        }
        guard let state else { throw AuthorizationResponseError(.missingField, "the response has no \"state\"") }
        guard let code = values["code"], !code.isEmpty else {
            throw AuthorizationResponseError(.missingField, "the response has no \"code\"", state: state)
        }
        self.code = code
        self.state = state
        self.idToken = values["id_token"].flatMap { $0.isEmpty ? nil : $0 }
        if let userJSON = values["user"], !userJSON.isEmpty {
            do {
                self.user = try AppleUserInfo(json: userJSON)
            } catch {
                throw AuthorizationResponseError(error.code, error.reason, state: state)
            }
        } else {
            self.user = nil
        }
    }
}

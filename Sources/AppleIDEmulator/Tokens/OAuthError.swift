import HTTPTypes

/// An error answered in Apple's JSON shape: `{"error": "<code>", "error_description": "<text>"}`.
///
/// Descriptions say what is wrong with a request, never echo a secret.
struct OAuthError: Error, Sendable, Hashable {
    let code: String
    let description: String?
    var status: HTTPResponse.Status = .badRequest

    static func invalidRequest(_ description: String) -> OAuthError { OAuthError(code: "invalid_request", description: description) }
    static func invalidClient(_ description: String) -> OAuthError { OAuthError(code: "invalid_client", description: description) }
    static func invalidGrant(_ description: String) -> OAuthError { OAuthError(code: "invalid_grant", description: description) }
    static func unsupportedGrantType(_ description: String) -> OAuthError { OAuthError(code: "unsupported_grant_type", description: description) }
    static func invalidScope(_ description: String) -> OAuthError { OAuthError(code: "invalid_scope", description: description) }
    static func serverError() -> OAuthError { OAuthError(code: "server_error", description: nil, status: .internalServerError) }
}

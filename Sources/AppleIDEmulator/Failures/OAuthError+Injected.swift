import HTTPTypes

extension OAuthError {
    /// The 5xx of `token_server_error` and `keys_server_error` (`status` is 500 – 599, checked by ``FailureRequest``).
    static func injectedServerError(status: Int) -> OAuthError {
        OAuthError(code: "server_error", description: nil, status: HTTPResponse.Status(code: status))
    }
}

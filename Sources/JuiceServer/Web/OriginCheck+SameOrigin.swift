import Hummingbird

extension OriginCheck {
    /// For a script's POST that must come from this site whether or not it carries a session (a
    /// browser always sends `Origin` on a POST made with `fetch`).
    /// - Throws: ``ServerError`` 403 `invalid_csrf_token` when `Origin` is missing or another site.
    func verifySameOrigin(_ request: Request) throws {
        guard let requestOrigin = request.headers[.origin], requestOrigin.lowercased() == origin else {
            throw ServerError(.invalidCSRFToken, status: .forbidden, "this request must come from this site's own pages")
        }
    }
}

import Hummingbird

/// A change authenticated by the session cookie must come from the public origin (a bearer token
/// cannot be sent cross-site by a browser, so it needs no check).
struct OriginCheck: Sendable {
    /// The public origin (`scheme://host[:port]`, lowercase).
    let origin: String

    /// - Throws: ``ServerError`` 403 `invalid_csrf_token` when a cookie-authenticated request has another or no `Origin`.
    func verify(_ request: Request, _ signedIn: SignedIn) throws(ServerError) {
        guard signedIn.viaCookie else { return }
        guard isSameOrigin(request) else {
            throw ServerError(.invalidCSRFToken, status: .forbidden, "a change made with the session cookie must come from this site")
        }
    }

    /// For a script's POST that must come from this site whether or not it carries a session (a
    /// browser always sends `Origin` on a POST made with `fetch`).
    /// - Throws: ``ServerError`` 403 `invalid_csrf_token` when `Origin` is missing or another site.
    func verifySameOrigin(_ request: Request) throws(ServerError) {
        guard isSameOrigin(request) else {
            throw ServerError(.invalidCSRFToken, status: .forbidden, "this request must come from this site's own pages")
        }
    }

    /// Whether the request's `Origin` is the public origin (`null` and a missing header are not).
    private func isSameOrigin(_ request: Request) -> Bool {
        request.headers[.origin]?.lowercased() == origin
    }
}

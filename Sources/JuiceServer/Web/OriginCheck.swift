import Hummingbird

/// A change authenticated by the session cookie must come from the public origin (a bearer token
/// cannot be sent cross-site by a browser, so it needs no check).
struct OriginCheck: Sendable {
    /// The public origin (`scheme://host[:port]`, lowercase).
    let origin: String

    /// - Throws: ``ServerError`` 403 `invalid_csrf_token` when a cookie-authenticated request has another or no `Origin`.
    func verify(_ request: Request, _ signedIn: SignedIn) throws {
        guard signedIn.viaCookie else { return }
        guard let requestOrigin = request.headers[.origin], requestOrigin.lowercased() == origin else {
            throw ServerError(.invalidCSRFToken, status: .forbidden, "a change made with the session cookie must come from this site")
        }
    }
}

import Hummingbird
import JuiceEncodings

/// Guards state-changing forms with a double-submit token: a random value in an `HttpOnly`,
/// `SameSite=Lax` cookie that every form repeats in a hidden `csrf` field. Another site can neither
/// read the cookie nor make the browser send it on a cross-site POST. A form post whose `Origin`
/// is another site is refused as well.
struct CSRFProtection: Sendable {
    let cookies: SessionCookies
    let random: ServerRandom
    /// The public origin (`scheme://host[:port]`).
    let origin: String

    /// The token to put in forms: the request's cookie, or a new one to set on the response.
    func token(for request: Request) -> (token: String, newCookie: Cookie?) {
        if let existing = request.cookies[cookies.csrfName]?.value, existing.count >= 32, existing.count <= 128 {
            return (existing, nil)
        }
        let token = random.token()
        return (token, cookies.csrf(token))
    }

    /// A fresh token, after signing in or out.
    func rotate() -> (token: String, cookie: Cookie) {
        let token = random.token()
        return (token, cookies.csrf(token))
    }

    /// Checks a submitted form.
    /// - Throws: ``ServerError/invalidCSRFToken()``.
    func verify(_ request: Request, submitted: String?) throws(ServerError) {
        if let requestOrigin = request.headers[.origin], requestOrigin != "null", requestOrigin.lowercased() != origin {
            throw .invalidCSRFToken()
        }
        guard let expected = request.cookies[cookies.csrfName]?.value, !expected.isEmpty, let submitted, constantTimeEquals(expected, submitted)
        else {
            throw .invalidCSRFToken()
        }
    }
}

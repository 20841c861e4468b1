import Crypto
import Foundation
import Hummingbird
import JuiceEncodings

/// Guards state-changing forms with a token bound to who is asking, and with the request's origin.
///
/// - Signed in with the session cookie, a form's token is an HMAC of the session's id under a server
///   key: only a page the server rendered for that session holds it, and a cookie planted by another
///   site (or a sibling subdomain) cannot make one.
/// - Before sign-in (the login and sign-up forms), the token is the same HMAC of a random pre-session
///   id kept in an `HttpOnly` cookie, replaced at every sign-in and sign-out.
/// - The form post must come from the public origin: its `Origin`, or without one its `Referer`; an
///   opaque `Origin: null`, another site, or neither header is refused.
struct CSRFProtection: Sendable {
    let cookies: SessionCookies
    let random: ServerRandom
    /// The public origin (`scheme://host[:port]`).
    let origin: String
    /// The HMAC key (derived from the server's refresh-token key, so every instance shares it).
    private let key: SymmetricKey

    init(cookies: SessionCookies, random: ServerRandom, origin: String, key: SymmetricKey) {
        self.cookies = cookies
        self.random = random
        self.origin = origin
        self.key = key
    }

    /// The form key, derived from the server's secret key for this one purpose.
    static func key(from secret: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("juice csrf v1".utf8), outputByteCount: 32)
    }

    /// The token to put in the forms of a page answering `request`, and the pre-session cookie to set
    /// when the request has none.
    func token(for request: Request, signedIn: SignedIn?) -> (token: String, newCookie: Cookie?) {
        if let signedIn, signedIn.viaCookie {
            return (bound("session", signedIn.session.id), nil)
        }
        if let existing = preSession(request) {
            return (bound("pre", existing), nil)
        }
        let id = random.token()
        return (bound("pre", id), cookies.csrf(id))
    }

    /// A fresh pre-session cookie, after signing in or out.
    func rotate() -> Cookie {
        cookies.csrf(random.token())
    }

    /// Checks a submitted form: its origin, then its token against the request's session (or, signed
    /// out, its pre-session cookie).
    /// - Throws: ``ServerError/invalidCSRFToken()``.
    func verify(_ request: Request, signedIn: SignedIn?, submitted: String?) throws(ServerError) {
        guard comesFromPublicOrigin(request) else { throw .invalidCSRFToken() }
        let expected: String
        if let signedIn, signedIn.viaCookie {
            expected = bound("session", signedIn.session.id)
        } else if let id = preSession(request) {
            expected = bound("pre", id)
        } else {
            throw .invalidCSRFToken()
        }
        guard let submitted, constantTimeEquals(expected, submitted) else { throw .invalidCSRFToken() }
    }

    /// Whether the request's `Origin` (or, when the browser sent none, its `Referer`) is the public origin.
    func comesFromPublicOrigin(_ request: Request) -> Bool {
        if let requestOrigin = request.headers[.origin] {
            // `null` is an opaque origin (a sandboxed frame, a data: URL, some redirects): never this site.
            return requestOrigin.lowercased() == origin
        }
        guard let referer = request.headers[.referer], let url = URL(string: referer) else { return false }
        return url.webOrigin == origin
    }

    private func preSession(_ request: Request) -> String? {
        guard let value = request.cookies[cookies.csrfName]?.value, value.utf8.count >= 32, value.utf8.count <= 128 else { return nil }
        return value
    }

    private func bound(_ purpose: String, _ id: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data((purpose + "\u{0}" + id).utf8), using: key)
        return Base64URL.encode(Array(mac))
    }
}

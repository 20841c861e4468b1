import Foundation
import Hummingbird

/// The cookies Juice sets: the session token, the CSRF token and the passkey offer's dismissal. All are `HttpOnly`,
/// `SameSite=Lax`, `Path=/`, and `Secure` with the `__Host-` prefix when the public URL is https.
struct SessionCookies: Sendable {
    /// Whether cookies are `Secure`.
    let secure: Bool
    /// The session cookie's lifetime.
    let sessionLifetime: TimeInterval

    /// The session cookie's name.
    var sessionName: String { secure ? "__Host-juice_session" : "juice_session" }
    /// The CSRF cookie's name.
    var csrfName: String { secure ? "__Host-juice_csrf" : "juice_csrf" }
    /// The name of the cookie that says this browser dismissed the account page's passkey offer.
    var passkeyOfferName: String { secure ? "__Host-juice_passkey_offer" : "juice_passkey_offer" }

    /// The cookie carrying a session token.
    func session(_ token: String) -> Cookie {
        make(sessionName, token, maxAge: Int(sessionLifetime))
    }

    /// A cookie that removes the session cookie.
    func clearedSession() -> Cookie {
        make(sessionName, "", maxAge: 0)
    }

    /// The cookie carrying a CSRF token (a browser-session cookie).
    func csrf(_ token: String) -> Cookie {
        make(csrfName, token, maxAge: nil)
    }

    /// The cookie that hides the account page's passkey offer in this browser (a year).
    func passkeyOfferDismissed() -> Cookie {
        make(passkeyOfferName, "dismissed", maxAge: 365 * 86_400)
    }

    private func make(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

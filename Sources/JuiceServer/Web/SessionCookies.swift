import Foundation
import Hummingbird

/// The cookies Juice sets: the session token and the CSRF token. Both are `HttpOnly`,
/// `SameSite=Lax`, `Path=/`, and `Secure` with the `__Host-` prefix when the public URL is https.
public struct SessionCookies: Sendable {
    /// Whether cookies are `Secure`.
    public let secure: Bool
    /// The session cookie's lifetime.
    public let sessionLifetime: TimeInterval

    public init(secure: Bool, sessionLifetime: TimeInterval) {
        self.secure = secure
        self.sessionLifetime = sessionLifetime
    }

    /// The session cookie's name.
    public var sessionName: String { secure ? "__Host-juice_session" : "juice_session" }
    /// The CSRF cookie's name.
    public var csrfName: String { secure ? "__Host-juice_csrf" : "juice_csrf" }

    /// The cookie carrying a session token.
    public func session(_ token: String) -> Cookie {
        make(sessionName, token, maxAge: Int(sessionLifetime))
    }

    /// A cookie that removes the session cookie.
    public func clearedSession() -> Cookie {
        make(sessionName, "", maxAge: 0)
    }

    /// The cookie carrying a CSRF token (a browser-session cookie).
    public func csrf(_ token: String) -> Cookie {
        make(csrfName, token, maxAge: nil)
    }

    private func make(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

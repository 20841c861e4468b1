import Crypto
import Foundation
import Hummingbird
import JuiceEncodings

/// Binds every web Sign in with Apple flow to the browser that started it, so that a flow started
/// by someone else cannot be finished in a victim's browser (sign-in and linking CSRF).
///
/// - Starting a web flow (`GET /auth/apple`, `POST /auth/apple/popup`) gives the browser a random
///   flow id in an `HttpOnly`, `SameSite=Lax` cookie (``cookieName``: `__Host-juice_flow` when the
///   public URL is https, `juice_flow` over http), reused while it lives.
/// - The `state` sent to Apple is a random value and an HMAC of it with that flow id
///   (``state(for:)``): the server keeps nothing more, and the state names the browser.
/// - Finishing the flow (``verify(state:browser:)``) requires the cookie whose id the state names.
///   Apple's `form_post` is cross-site and carries no Lax cookie, so the callback only seals the
///   verified answer and sends the browser on to a same-site `GET /auth/apple/finish`
///   (``CallbackHandoff``), where the cookie is sent and checked; the popup's completion is a
///   same-origin request that carries it directly.
struct FlowBinding: Sendable {
    /// Whether the cookie is `Secure` with the `__Host-` prefix, and how long it lives (the
    /// authorization lifetime).
    let secure: Bool, lifetime: TimeInterval
    let random: ServerRandom
    /// The HMAC key, derived from the server secret for this purpose.
    private let key: SymmetricKey

    init(secure: Bool, lifetime: TimeInterval, random: ServerRandom, secret: SymmetricKey) {
        (self.secure, self.lifetime, self.random) = (secure, lifetime, random)
        key = secret.derived(for: "juice flow binding v1")
    }

    /// The cookie's name.
    var cookieName: String { secure ? "__Host-juice_flow" : "juice_flow" }

    /// The flow id the request's cookie holds, if it holds a plausible one.
    func browser(of request: Request) -> String? {
        guard let value = request.cookies[cookieName]?.value, value.utf8.count >= 32, value.utf8.count <= 128 else { return nil }
        return value
    }

    /// The flow id to bind a new flow to (the request's, or a fresh one) and the cookie that keeps it
    /// (set again so that it outlives this flow's authorization lifetime).
    func start(_ request: Request) -> (browser: String, cookie: Cookie) {
        let browser = browser(of: request) ?? random.token()
        let cookie = Cookie(
            name: cookieName, value: browser, maxAge: Int(lifetime), path: "/", secure: secure, httpOnly: true, sameSite: .lax)
        return (browser, cookie)
    }

    /// A fresh `state` bound to `browser`: `random.mac`.
    func state(for browser: String) -> String {
        let nonce = random.token(byteCount: 24)
        return nonce + "." + mac(nonce, browser)
    }

    /// Checks that `state` was made for the browser whose flow id is `browser`.
    /// - Throws: ``ServerError`` `browser_mismatch` (403) when it was not, or the browser has no flow id.
    func verify(state: String, browser: String?) throws(ServerError) {
        guard let browser, let dot = state.lastIndex(of: "."),
            constantTimeEquals(mac(String(state[..<dot]), browser), String(state[state.index(after: dot)...]))
        else {
            throw ServerError(
                .browserMismatch, status: .forbidden,
                "this sign-in was started in another browser or session; start again here (a link someone sent you cannot finish it)")
        }
    }

    private func mac(_ nonce: String, _ browser: String) -> String {
        Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Data((nonce + "\u{0}" + browser).utf8), using: key)))
    }
}

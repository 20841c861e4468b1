/// Who may reach a route, declared where the route is registered: each value is one group of
/// ``ProtectedRoutes``, whose middleware and request context enforce it before the handler runs.
///
/// `RouteProtectionTests` walks the router's table and checks every route's protection, so a new
/// state-changing route cannot go without a session check, a same-origin or CSRF check, or a written
/// exemption.
enum RouteProtection: Hashable, Sendable, CustomStringConvertible {
    /// A safe read anyone may make (a page, a document, a redirect that starts a flow).
    case openRead
    /// A change anyone may ask for, and why it needs neither a session nor an origin check (said where
    /// it is declared, e.g. Apple's cross-site `form_post`, a JSON sign-in that sets no cookie).
    case exempt(because: String)
    /// A form post, signed in or not: its CSRF token and its `Origin` (or `Referer`) (``CSRFMiddleware``).
    case form
    /// A page's script post, signed in or not: its `Origin` must be this site (``ScriptOriginMiddleware``).
    case script
    /// A page for the signed-in browser: without the session cookie it redirects to the login page
    /// (``SignedInPageContext``).
    case signedInPage
    /// A form on a signed-in page: its CSRF token, then the session cookie (``CSRFMiddleware``,
    /// ``SignedInPageContext``).
    case signedInForm
    /// An API read that needs a session, cookie or bearer token: 401 without one (``SignedInContext``).
    case signedInRead
    /// An API change that needs a session: 401 without one, and a change made with the cookie must come
    /// from this site (``SignedInContext``, ``SameOriginChangeMiddleware``).
    case signedInChange

    /// Whether a request must prove a session to reach the handler.
    var needsSession: Bool {
        switch self {
        case .signedInPage, .signedInForm, .signedInRead, .signedInChange: true
        case .openRead, .exempt, .form, .script: false
        }
    }

    /// Whether a cross-site request is refused before the handler runs (CSRF token or `Origin`).
    var checksOrigin: Bool {
        switch self {
        case .form, .script, .signedInForm, .signedInChange: true
        case .openRead, .exempt, .signedInPage, .signedInRead: false
        }
    }

    var description: String {
        switch self {
        case .openRead: "open read"
        case .exempt(let reason): "exempt (\(reason))"
        case .form: "form (CSRF)"
        case .script: "script (same origin)"
        case .signedInPage: "signed-in page"
        case .signedInForm: "signed-in form (CSRF)"
        case .signedInRead: "signed-in read"
        case .signedInChange: "signed-in change (same origin)"
        }
    }
}

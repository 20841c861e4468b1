import Hummingbird

/// The request context of the signed-in browser's pages and forms (``RouteProtection/signedInPage``
/// and ``RouteProtection/signedInForm``): made from ``AppRequestContext`` only when the request carries
/// the session cookie; otherwise the browser goes to the login page (``SignInRedirect``).
struct SignedInPageContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The session and account the session cookie proves.
    let signedIn: SignedIn
    /// The client's IP address, as a rate-limiting key (see ``AppRequestContext/clientAddress``).
    let clientAddress: String?

    /// - Throws: ``SignInRedirect`` when the request has no session cookie (a bearer token is not a browser).
    init(context: AppRequestContext) throws {
        guard let signedIn = context.signedIn, signedIn.viaCookie else { throw SignInRedirect() }
        self.coreContext = context.coreContext
        self.signedIn = signedIn
        self.clientAddress = context.clientAddress
    }

    /// Request bodies are forms, as on every route.
    var maxUploadSize: Int { 64 * 1024 }
}

/// A signed-in page asked for without a session cookie: ``ErrorMiddleware`` answers `303 See Other` to
/// the login page, as the pages always have.
struct SignInRedirect: Error {
    /// Where the browser goes.
    let location = "/"
}

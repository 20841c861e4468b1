import Hummingbird

/// The request context of the routes that need a session (``RouteProtection/signedInRead`` and
/// ``RouteProtection/signedInChange``): made from ``AppRequestContext`` only when the request proves
/// one, so a handler in these groups holds the signed-in account as a value and cannot run without it.
struct SignedInContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The session and account the request proves.
    let signedIn: SignedIn
    /// The client's IP address, as a rate-limiting key (see ``AppRequestContext/clientAddress``).
    let clientAddress: String?

    /// - Throws: ``ServerError`` 401 `unauthorized` when the request proves no session.
    init(context: AppRequestContext) throws {
        guard let signedIn = context.signedIn else {
            throw ServerError.unauthorized("a valid session cookie or bearer token is required")
        }
        self.coreContext = context.coreContext
        self.signedIn = signedIn
        self.clientAddress = context.clientAddress
    }

    /// Request bodies are small JSON documents, as on every route.
    var maxUploadSize: Int { 64 * 1024 }
}

import Hummingbird
import NIOCore

/// The request context of every Juice route: the client's address (for rate limiting) and, once
/// ``SessionMiddleware`` has run, the signed-in account.
struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's address.
    let remoteAddress: SocketAddress?
    /// The session and account the request proves (cookie or `Authorization: Bearer`), if any.
    var signedIn: SignedIn?
    /// The client's IP address, as a rate-limiting key: the peer's, or the one a trusted proxy
    /// reports (``ClientAddressMiddleware``).
    var clientAddress: String?
    /// Whether a trusted proxy says the client reached it over https.
    var forwardedHTTPS = false

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = remoteAddress?.ipAddress
    }

    /// Request bodies are forms and small JSON documents.
    var maxUploadSize: Int { 64 * 1024 }

    /// The signed-in account, for a route that needs one.
    /// - Throws: ``ServerError`` 401 `unauthorized` when the request proves no session.
    func requireSignedIn() throws -> SignedIn {
        guard let signedIn else { throw ServerError.unauthorized("a valid session cookie or bearer token is required") }
        return signedIn
    }
}

/// A request's proven session and its account.
struct SignedIn: Sendable, Hashable {
    /// The session.
    let session: Session
    /// The account.
    let account: Account
    /// Whether the token came from the cookie (a browser) rather than `Authorization: Bearer`.
    let viaCookie: Bool
}

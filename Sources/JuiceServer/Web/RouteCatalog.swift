import Hummingbird

/// Adds routes to a router and remembers each path's methods, so that a request for a known path
/// with another method is answered 405 with `Allow` (``MethodNotAllowedMiddleware``) instead of 404.
///
/// ```swift
/// let catalog = RouteCatalog(router)
/// catalog.addRoutes(controller.endpoints)
/// router.add(middleware: MethodNotAllowedMiddleware(routes: catalog.routes))  // last: it sees only unmatched requests
/// ```
final class RouteCatalog<Context: RequestContext>: RouterMethods {
    /// One path and the methods it answers.
    struct Route: Sendable {
        let path: RouterPath
        var methods: Set<HTTPRequest.Method>
    }

    private let router: Router<Context>
    /// The routes added so far.
    private(set) var routes: [Route] = []

    init(_ router: Router<Context>) {
        self.router = router
    }

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        router.on(path, method: method, responder: responder)
        if let index = routes.firstIndex(where: { $0.path.description == path.description }) {
            routes[index].methods.insert(method)
        } else {
            routes.append(Route(path: path, methods: [method]))
        }
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}

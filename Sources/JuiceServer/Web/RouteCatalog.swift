import Hummingbird

/// Adds routes to a router and remembers each path's methods and who may reach them: a request for a
/// known path with another method is answered 405 with `Allow` (``MethodNotAllowedMiddleware``)
/// instead of 404, and `RouteProtectionTests` reads every route's ``RouteProtection``.
///
/// ```swift
/// let catalog = RouteCatalog(router)
/// let routes = ProtectedRoutes(catalog, csrf: csrf, origin: origin)
/// controller.addRoutes(to: routes)
/// router.add(middleware: MethodNotAllowedMiddleware(routes: catalog.routes))  // last: it sees only unmatched requests
/// ```
final class RouteCatalog<Context: RequestContext>: RouterMethods {
    /// One path, the methods it answers, and the protection of each.
    struct Route: Sendable {
        let path: RouterPath
        var protections: [HTTPRequest.Method: RouteProtection] = [:]
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
        routes[index(of: path)].methods.insert(method)
        return self
    }

    /// Records who may reach `method` on `path` (``ProtectedGroup`` does, for every route it adds).
    func record(_ path: RouterPath, method: HTTPRequest.Method, protection: RouteProtection) {
        routes[index(of: path)].protections[method] = protection
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    private func index(of path: RouterPath) -> Int {
        if let index = routes.firstIndex(where: { $0.path.description == path.description }) { return index }
        routes.append(Route(path: path, methods: []))
        return routes.count - 1
    }
}

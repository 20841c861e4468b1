import Hummingbird

/// Routes that share one ``RouteProtection``: each route added here is registered through `parent`
/// (whose middleware and request context enforce the protection) and recorded with it in the
/// ``RouteCatalog``, so the router's table says who may reach every route.
struct ProtectedGroup<Context: RequestContext>: RouterMethods {
    /// Where routes are registered: a group carrying the protection's middleware and context.
    let parent: any RouterMethods<Context>
    /// Where each route's protection is recorded.
    let catalog: RouteCatalog<AppRequestContext>
    /// The protection of every route of this group.
    let protection: RouteProtection

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        _ = parent.on(path, method: method, responder: responder)
        catalog.record(path, method: method, protection: protection)
        return self
    }

    /// Middleware for this group's later routes only (the protection's own middleware is already in `parent`).
    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        _ = parent.add(middleware: middleware)
        return self
    }
}

import Hummingbird

/// Refuses an API change made with the session cookie from another site (``OriginCheck/verify(_:_:)``):
/// the group of every ``RouteProtection/signedInChange`` route. A bearer token needs no check (a browser
/// cannot send one cross-site).
struct SameOriginChangeMiddleware: RouterMiddleware {
    typealias Context = SignedInContext

    let origin: OriginCheck

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try origin.verify(request, context.signedIn)
        return try await next(request, context)
    }
}

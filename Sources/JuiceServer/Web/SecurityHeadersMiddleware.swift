import HTTPTypes
import Hummingbird

/// Headers every answer needs whatever route made it (errors included):
/// - `Cache-Control: no-store` on the API, the sign-in routes and the account pages, which carry
///   session tokens or personal data (a route that chose its own caching keeps it);
/// - `Strict-Transport-Security` when the public URL is https, so a browser never tries plain HTTP
///   again.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// Whether to send HSTS (the public URL is https).
    let strictTransportSecurity: Bool

    /// Paths whose answers must never be stored by a browser or a proxy.
    static let privatePrefixes = ["/api/", "/auth/", "/account", "/signin", "/signup", "/signout", "/apple/"]

    static let hsts = "max-age=31536000"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let path = request.uri.path
        if response.headers[.cacheControl] == nil, Self.privatePrefixes.contains(where: { path.hasPrefix($0) }) {
            response.headers[.cacheControl] = "no-store"
        }
        if strictTransportSecurity || context.forwardedHTTPS {
            response.headers[.strictTransportSecurity] = Self.hsts
        }
        return response
    }
}

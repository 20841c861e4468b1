import Hummingbird

/// Answers 405 with `Allow` when a request's path is a known route but its method is not. Added to
/// the router after every route, it runs only for requests no route matched; an unknown path stays 404.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: [RouteCatalog<Context>.Route]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let segments = request.uri.path.split(separator: "/")
        guard let route = routes.first(where: { Self.matches($0.path, segments) }) else { return try await next(request, context) }
        var methods = route.methods
        // Hummingbird answers HEAD for every GET route (`autoGenerateHeadEndpoints`).
        if methods.contains(.get) { methods.insert(.head) }
        var error = ServerError(.methodNotAllowed, status: .methodNotAllowed, "\(request.method.rawValue.prefix(32)) is not allowed here")
        error.headers[.allow] = methods.map(\.rawValue).sorted().joined(separator: ", ")
        throw error
    }

    /// Whether `path`'s components match the request's segments (captures match any one segment).
    static func matches(_ path: RouterPath, _ segments: [Substring]) -> Bool {
        var index = 0
        for component in path {
            if component.description == "**" { return true }
            guard index < segments.count, component ~= segments[index] else { return false }
            index += 1
        }
        return index == segments.count
    }
}

import Hummingbird

/// Answers 405 with `Allow` when a request's path is a known route but its method is not. Added to
/// the router after every route, it runs only for requests no route matched; an unknown path stays 404.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: [RouteCatalog<Context>.Route]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let segments = request.uri.path.split(separator: "/")
        // The router takes a path's constant segment over a capture (`/api/passkeys/upgrade` is never
        // `/api/passkeys/{id}`), so the most specific matching routes say which methods the path answers.
        let matching = routes.filter { Self.matches($0.path, segments) }
        guard let fewest = matching.map({ Self.captures($0.path) }).min() else { return try await next(request, context) }
        var methods = matching.filter { Self.captures($0.path) == fewest }.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods) }
        // Hummingbird answers HEAD for every GET route (`autoGenerateHeadEndpoints`).
        if methods.contains(.get) { methods.insert(.head) }
        var error = ServerError(.methodNotAllowed, status: .methodNotAllowed, "\(request.method.rawValue.prefix(32)) is not allowed here")
        error.headers[.allow] = methods.map(\.rawValue).sorted().joined(separator: ", ")
        throw error
    }

    /// How many of `path`'s components are not constant (captures and wildcards).
    static func captures(_ path: RouterPath) -> Int {
        // A constant component describes itself as its text; a capture or a wildcard has `{…}` or `*`.
        path.filter { $0.description.contains("{") || $0.description.contains("*") }.count
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

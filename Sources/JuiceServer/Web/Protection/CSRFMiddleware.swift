import Hummingbird

/// Refuses a form post whose CSRF token or origin is wrong (``CSRFProtection/verify(_:signedIn:submitted:)``)
/// before any handler reads it: the group of every ``RouteProtection/form`` and
/// ``RouteProtection/signedInForm`` route.
///
/// It reads the form's `csrf` field, so it collects the body first (at most 64 KiB, as every form) and
/// hands the handler the collected copy.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let csrf: CSRFProtection

    /// The one field this middleware reads.
    private struct TokenField: Decodable {
        var csrf: String?
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        do {
            _ = try await request.collectBody(upTo: context.maxUploadSize)
        } catch {
            throw ServerError.invalidRequest("the request body is too large")
        }
        let form = try await request.form(TokenField.self)
        try csrf.verify(request, signedIn: context.signedIn, submitted: form.csrf)
        return try await next(request, context)
    }
}

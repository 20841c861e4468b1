import Hummingbird
import JuiceInfrastructure

/// Refuses a page script's post that does not come from this site (``OriginCheck/verifySameOrigin(_:)``),
/// signed in or not: the group of every ``RouteProtection/script`` route (the popup and passkey sign-ins,
/// so another site cannot sign a browser in to the attacker's account). The caller is a script, so the
/// refusal is `{"error", "reason"}` in the page's language, never a page.
struct ScriptOriginMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let origin: OriginCheck

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            try origin.verifySameOrigin(request)
        } catch {
            return error.localizedJSONResponse(language: request.language)
        }
        return try await next(request, context)
    }
}

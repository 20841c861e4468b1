import Foundation
import Hummingbird

/// The JSON endpoints of the login page's popup sign-in (Sign in with Apple JS):
/// - `POST /auth/apple/popup`: stores a single-use state and nonce, answers the configuration for
///   `AppleID.auth.init` (the page asks when the pointer or focus reaches the button, so a plain GET of
///   the login page writes nothing);
/// - `POST /auth/apple/popup/complete`: takes `{code, id_token, state, user}` as `AppleID.auth.signIn()`
///   resolved, signs in with the form_post callback's checks, sets the session cookie and answers
///   `{"location": "/account"}`.
///
/// Both are script routes (``RouteProtection/script``): same-origin only (`Origin` must be the public origin, signed in
/// or not), checked by their group, and answer `{"error", "reason"}` on failure.
struct ApplePopupController: Sendable {
    let popup: ApplePopupSignIn
    let cookies: SessionCookies
    let csrf: CSRFProtection

    /// The answer of a completed sign-in: where the page goes next.
    struct Completed: ResponseEncodable, Sendable {
        let location: String
    }

    func addRoutes(to routes: ProtectedRoutes) {
        routes.scripts.post("/auth/apple/popup") { request, context in
            await answering(context) {
                let session = context.signedIn?.viaCookie == true ? context.signedIn?.session : nil
                let (browser, cookie) = popup.web.binding.start(request)
                var response = try await popup.begin(session: session, browser: browser).response(from: request, context: context)
                response.setCookie(cookie)
                return response
            }
        }
        routes.scripts.post("/auth/apple/popup/complete") { request, context in
            await answering(context) {
                let answer = try await request.decodeJSON(ApplePopupSignIn.Answer.self)
                let sessionID = context.signedIn?.viaCookie == true ? context.signedIn?.session.id : nil
                let (sessionToken, result) = try await popup.complete(answer, browser: popup.web.binding.browser(of: request), sessionID: sessionID)
                var response = try Completed(location: result.linked ? "/account?notice=linked" : "/account").response(
                    from: request, context: context)
                response.setCookie(cookies.session(sessionToken))
                response.setCookie(csrf.rotate())
                return response
            }
        }
    }

    /// Runs `body`; any error becomes the JSON error answer (never a page: the caller is a script).
    private func answering(_ context: AppRequestContext, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return ErrorMiddleware.serverError(for: error, logger: context.logger).jsonResponse()
        }
    }
}

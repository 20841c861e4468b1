import Foundation
import Hummingbird

/// `GET /auth/apple` (start: store state and nonce, bind the flow to this browser, redirect to Apple),
/// `POST /auth/apple/callback` (Apple's cross-site `form_post`, which carries no Lax cookie: it
/// consumes the state and hands over to the finish) and `GET /auth/apple/finish` (same-site, with the
/// browser's cookies: signs in only in the browser, and links only in the session, that started it).
struct AppleAuthController: Sendable {
    let signIn: AppleWebSignIn
    let cookies: SessionCookies
    let csrf: CSRFProtection

    func addRoutes(to routes: ProtectedRoutes) {
        routes.openReads.get("/auth/apple") { request, context in
            let session = context.signedIn?.viaCookie == true ? context.signedIn?.session : nil
            let (browser, cookie) = signIn.binding.start(request)
            let url = try await signIn.begin(session: session, browser: browser)
            var response = Response.redirect(to: url.absoluteString, type: .found)
            response.headers[.cacheControl] = "no-store"
            response.setCookie(cookie)
            return response
        }
        routes.openReads.get("/auth/apple/native") { request, _ in
            // Answers JSON errors (a native client reads them), never a page.
            do {
                let query = request.uri.queryParameters
                let url = try await signIn.beginLoopbackBridge(
                    redirectURI: query.get("redirect_uri"), state: query.get("state"), nonce: query.get("nonce")
                )
                var response = Response.redirect(to: url.absoluteString, type: .found)
                response.headers[.cacheControl] = "no-store"
                return response
            } catch let error as any ServerErrorConvertible {
                return error.serverError.jsonResponse()
            }
        }
        // Apple's answer is a cross-site `form_post` (no Origin of ours, no Lax cookie): the single-use `state`,
        // bound to the browser that started the flow (``FlowBinding``), is its CSRF defence.
        routes.exempt(because: "Apple's cross-site form_post; the single-use state bound to the starting browser defends it")
            .post("/auth/apple/callback") { request, _ in
                let body = try await request.bodyText()
                switch try await signIn.complete(formBody: body) {
                case .cancelled:
                    return Response.seeOther("/?notice=cancelled")
                case .bridged(let url):
                    return Response.seeOther(url.absoluteString)
                case .handoff(let sealed):
                    return Response.seeOther("/auth/apple/finish?answer=" + sealed)
                }
            }
        routes.openReads.get("/auth/apple/finish") { request, context in
            let sessionID = context.signedIn?.viaCookie == true ? context.signedIn?.session.id : nil
            let (sessionToken, result) = try await signIn.finish(
                sealed: request.uri.queryParameters.get("answer") ?? "", browser: signIn.binding.browser(of: request), sessionID: sessionID)
            var response = Response.seeOther(result.linked ? "/account?notice=linked" : "/account")
            response.setCookie(cookies.session(sessionToken))
            response.setCookie(csrf.rotate())
            return response
        }
    }
}

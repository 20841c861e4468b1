import Foundation
import Hummingbird

/// `GET /auth/apple` (start: store state and nonce, redirect to Apple) and
/// `POST /auth/apple/callback` (Apple's cross-site `form_post`, which carries no cookies).
struct AppleAuthController: Sendable {
    let signIn: AppleWebSignIn
    let cookies: SessionCookies
    let csrf: CSRFProtection

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("/auth/apple") { _, context in
            let session = context.signedIn?.viaCookie == true ? context.signedIn?.session : nil
            let url = try await signIn.begin(session: session)
            var response = Response.redirect(to: url.absoluteString, type: .found)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        routes.get("/auth/apple/native") { request, _ in
            // Answers JSON errors (a native client reads them), never a page.
            do {
                let query = request.uri.queryParameters
                let url = try await signIn.beginNative(
                    redirectURI: query.get("redirect_uri"), state: query.get("state"), nonce: query.get("nonce")
                )
                var response = Response.redirect(to: url.absoluteString, type: .found)
                response.headers[.cacheControl] = "no-store"
                return response
            } catch let error as any ServerErrorConvertible {
                return error.serverError.jsonResponse()
            }
        }
        routes.post("/auth/apple/callback") { request, _ in
            let body = try await request.bodyText()
            switch try await signIn.complete(formBody: body) {
            case .cancelled:
                return Response.seeOther("/?notice=cancelled")
            case .relayed(let url):
                return Response.seeOther(url.absoluteString)
            case .signedIn(let token, let result):
                var response = Response.seeOther(result.linked ? "/account?notice=linked" : "/account")
                response.setCookie(cookies.session(token))
                response.setCookie(csrf.rotate())
                return response
            }
        }
        return routes
    }
}

import Foundation
import Hummingbird
import JuiceEncodings
import JuiceInfrastructure

/// Passkeys on the web pages (the JSON API is ``PasskeyAPIController``, whose options and
/// registration routes the pages' script also calls):
///
/// | Route | Does |
/// |---|---|
/// | `POST /auth/passkey` | the login page's passkey sign-in: an assertion (`PublicKeyCredential.toJSON()`) → the session cookie and `{"location": "/account"}` |
/// | `POST /signup/passkey` | the sign-up page's passkey sign-up: the `create()` answer with `userHandle` and `username` (as `POST /api/accounts/passkey` takes it) → the new account's session cookie and `{"location": "/account"}` |
/// | `POST /account/passkeys/rename` | the account page's rename form (`id`, `name`) |
/// | `POST /account/passkeys/remove` | the account page's remove form (`id`); the account's last way to sign in stays |
/// | `POST /account/passkeys/offer/dismiss` | hides the account page's passkey offer in this browser |
///
/// `POST /auth/passkey` and `POST /signup/passkey` are script routes (``RouteProtection/script``): they must come from
/// the public origin (signed in or not), so another site cannot sign a browser in to the attacker's account with the
/// attacker's passkey; they answer `{"error", "reason"}` on failure, the reason in the page's language. The forms are
/// CSRF-checked by their group like every other form.
struct PasskeyWebController: Sendable {
    let web: WebController
    let ceremonies: PasskeyCeremonies
    let signUp: PasskeySignUp
    /// The passkeys, as the ceremonies store them.
    var store: PasskeyStore { ceremonies.store }

    /// A rename or remove form.
    struct PasskeyForm: Decodable {
        var id: String?
        var name: String?
    }

    func addRoutes(to routes: ProtectedRoutes) {
        routes.scripts.post("/auth/passkey") { request, context in
            do {
                let body = try await request.decodeJSON(PasskeyAPIController.AuthenticationBody.self)
                let (sessionToken, _, _) = try await ceremonies.finishAuthentication(try body.authenticationResponse())
                return try signedIn(sessionToken, request, context)
            } catch {
                return localizedRefusal(error, request, context)
            }
        }
        routes.scripts.post("/signup/passkey") { request, context in
            do {
                let body = try await request.decodeJSON(PasskeyAPIController.SignUpBody.self)
                let (sessionToken, _, _) = try await signUp.finish(
                    try body.registration.registrationResponse(), userHandle: try body.userHandleBytes(), username: body.username,
                    transports: body.response.transports ?? [], name: body.name)
                return try signedIn(sessionToken, request, context)
            } catch {
                return localizedRefusal(error, request, context)
            }
        }
        routes.signedInForms.post("/account/passkeys/rename") { request, context in
            try await change(request, context) { form, signedIn in
                let name = try PasskeyAPIController.newName(form.name ?? "")
                let id = try PasskeyAPIController.credentialID(named: form.id)
                guard try await store.rename(credentialID: id, accountID: signedIn.account.id, to: name) else {
                    throw PasskeyAPIController.noSuchPasskey
                }
                return "/account?notice=passkey_renamed"
            }
        }
        routes.signedInForms.post("/account/passkeys/remove") { request, context in
            try await change(request, context) { form, signedIn in
                let id = try PasskeyAPIController.credentialID(named: form.id)
                switch try await store.remove(credentialID: id, accountID: signedIn.account.id) {
                case .removed: return "/account?notice=passkey_removed&removed=\(Base64URL.encode(id))"
                case .notFound: throw PasskeyAPIController.noSuchPasskey
                case .lastSignInMethod: throw PasskeyAPIController.lastSignInMethod
                }
            }
        }
        // Signed in or not: the offer can be dismissed from a page whose session has just ended.
        routes.forms.post("/account/passkeys/offer/dismiss") { _, context in
            var response = Response.seeOther(context.signedIn?.viaCookie == true ? "/account" : "/")
            response.setCookie(web.cookies.passkeyOfferDismissed())
            return response
        }
    }

    /// `{"error", "reason"}` for a script, the reason in the page's language.
    /// The answer to a page's passkey sign-in or sign-up: the new session's cookie, a fresh CSRF token, and
    /// `{"location": "/account"}` for the page's script.
    private func signedIn(_ sessionToken: String, _ request: Request, _ context: AppRequestContext) throws -> Response {
        var response = try ApplePopupController.Completed(location: "/account").response(from: request, context: context)
        response.setCookie(web.cookies.session(sessionToken))
        response.setCookie(web.csrf.rotate())
        return response
    }

    private func localizedRefusal(_ error: any Error, _ request: Request, _ context: AppRequestContext) -> Response {
        ErrorMiddleware.serverError(for: error, logger: context.logger).localizedJSONResponse(language: request.language)
    }

    /// A form on the account page (its group has checked the CSRF token and the session cookie); `body`
    /// returns where to go next, and a refusal it throws (a 4xx) is shown on the account page with its status.
    private func change(
        _ request: Request, _ context: SignedInPageContext, _ body: (PasskeyForm, SignedIn) async throws -> String
    ) async throws -> Response {
        let form = try await request.form(PasskeyForm.self)
        let signedIn = context.signedIn
        do {
            return Response.seeOther(try await body(form, signedIn))
        } catch let error as any ServerErrorConvertible where error.serverError.status.code < 500 {
            return try await web.accountPage(request, signedIn, error: error.serverError)
        }
    }
}

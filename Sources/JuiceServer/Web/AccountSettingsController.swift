import AppleSignIn
import Foundation
import Hummingbird
import JuiceInfrastructure

/// The account's own security settings, as pages and as JSON:
///
/// | Route | Does |
/// |---|---|
/// | `GET /account/password`, `POST /account/password` | the change-password (or add-a-password) page and its form |
/// | `POST /account/sessions/end`, `POST /account/sessions/end-others` | the account page's session forms |
/// | `POST /api/account/password` | `{"current_password", "new_password"}` (or `{"username", "new_password"}` to add one) → 204 |
/// | `GET /api/account/sessions` | the account's active sessions |
/// | `DELETE /api/account/sessions/{id}` | ends one of them → 204 |
/// | `DELETE /api/account/sessions` | ends every other one → `{"ended"}` |
///
/// Every form is CSRF-checked and a cookie-authenticated API change must come from the public origin: the
/// routes' groups in ``ProtectedRoutes`` check both before a handler runs.
struct AccountSettingsController: Sendable {
    let web: WebController
    let change: PasswordChange
    /// Whether the account has a password (the page asks for the current one then).
    let accounts: AccountStore
    let sessions: SessionStore
    let time: TimeSource

    /// `POST /api/account/password`'s body.
    struct PasswordBody: Decodable {
        var currentPassword: String?
        var newPassword: String
        var username: String?

        enum CodingKeys: String, CodingKey {
            case currentPassword = "current_password"
            case newPassword = "new_password"
            case username
        }
    }

    /// The password form.
    struct PasswordForm: Decodable {
        var username: String?
        var currentPassword: String?
        var newPassword: String?

        enum CodingKeys: String, CodingKey {
            case username
            case currentPassword = "current_password"
            case newPassword = "new_password"
        }
    }

    /// A session form.
    struct SessionForm: Decodable {
        var session: String?
    }

    /// One session in `GET /api/account/sessions`.
    struct SessionResponse: Encodable, Sendable {
        var id: String
        var method: SignInMethod
        var createdAt: String
        var lastSeenAt: String?
        var expiresAt: String
        var current: Bool
    }

    /// `{"sessions": [...]}`.
    struct SessionsResponse: ResponseEncodable, Sendable {
        var sessions: [SessionResponse]
    }

    /// `{"ended": n}`.
    struct EndedResponse: ResponseEncodable, Sendable {
        var ended: Int
    }

    func addRoutes(to routes: ProtectedRoutes) {
        routes.signedInPages.get("/account/password") { request, context in
            try await passwordPage(request, context.signedIn, username: nil, error: nil)
        }
        routes.signedInForms.post("/account/password") { request, context in
            let form = try await request.form(PasswordForm.self)
            do {
                try await change.change(
                    context.signedIn, currentPassword: form.currentPassword, newPassword: form.newPassword ?? "", username: form.username,
                    address: context.clientAddress)
                return Response.seeOther("/account?notice=password_changed")
            } catch let error as ServerError where error.status.code < 500 {
                return try await passwordPage(request, context.signedIn, username: form.username, error: error)
            }
        }
        routes.signedInForms.post("/account/sessions/end") { request, context in
            let form = try await request.form(SessionForm.self)
            let signedIn = context.signedIn
            guard let id = form.session, !id.isEmpty, id.utf8.count <= 128 else { throw ServerError.invalidRequest("session is required") }
            try await sessions.end(sessionID: id, accountID: signedIn.account.id)
            return Response.seeOther(id == signedIn.session.id ? "/?notice=signed_out" : "/account?notice=session_ended")
        }
        routes.signedInForms.post("/account/sessions/end-others") { _, context in
            try await sessions.endAll(accountID: context.signedIn.account.id, keeping: context.signedIn.session.id)
            return Response.seeOther("/account?notice=sessions_ended")
        }

        routes.signedInChanges.post("/api/account/password") { request, context -> Response in
            let body = try await request.decodeJSON(PasswordBody.self)
            try await change.change(
                context.signedIn, currentPassword: body.currentPassword, newPassword: body.newPassword, username: body.username,
                address: context.clientAddress)
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        routes.signedInReads.get("/api/account/sessions") { _, context -> SessionsResponse in
            let signedIn = context.signedIn
            let list = try await sessions.activeSessions(accountID: signedIn.account.id, now: time.now)
            return SessionsResponse(
                sessions: list.map {
                    SessionResponse(
                        id: $0.id, method: $0.method, createdAt: $0.createdAt.formatted(.iso8601), lastSeenAt: $0.lastSeenAt?.formatted(.iso8601),
                        expiresAt: $0.expiresAt.formatted(.iso8601), current: $0.id == signedIn.session.id)
                })
        }
        routes.signedInChanges.delete("/api/account/sessions/{id}") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            guard !id.isEmpty, id.utf8.count <= 128, try await sessions.end(sessionID: id, accountID: context.signedIn.account.id) else {
                throw ServerError(.notFound, status: .notFound, "this account has no such session")
            }
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        routes.signedInChanges.delete("/api/account/sessions") { _, context -> EndedResponse in
            EndedResponse(ended: try await sessions.endAll(accountID: context.signedIn.account.id, keeping: context.signedIn.session.id))
        }
    }

    private func passwordPage(_ request: Request, _ signedIn: SignedIn, username: String?, error: ServerError?) async throws -> Response {
        let language = request.language
        let (token, cookie) = web.csrf.token(for: request, signedIn: signedIn)
        let credential = try await accounts.passwordCredential(accountID: signedIn.account.id)
        // A passkey-first account keeps the username it chose: shown, not asked for.
        let kept = credential?.username ?? signedIn.account.username
        var values: [String: Any] = ["csrf": token, "has_password": credential != nil, "has_username": kept != nil]
        if let name = kept ?? username.map({ String($0.prefix(64)) }) { values["username"] = name }
        if let message = error?.localizedReason(language) { values["error"] = message }
        let title = PageStrings.string(credential != nil ? "change_password" : "add_password", language)
        var response = web.pages.response(
            web.pages.render("password", language: language, title: title, values: values), status: error?.status ?? .ok, language: language)
        response.headers[.contentSecurityPolicy] = PasswordStrengthScript.contentSecurityPolicy
        if let error { response.headers.append(contentsOf: error.headers) }
        if let cookie { response.setCookie(cookie) }
        return response
    }
}

import Hummingbird
import JuiceEncodings
import JuiceInfrastructure
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GET /auth/authorize` (the sign-in page) and `POST /auth/authorize` (sign in, consent, continue or
/// cancel, then the answer per `response_mode`).
///
/// The form fields are `account_name`, `password`, `first_name`, `last_name`, `email_choice`
/// (`share`|`hide`) and `action` (`continue`|`cancel`), next to the original parameters as hidden
/// fields; one POST carrying all of them completes the flow.
struct AuthorizeController: Sendable {
    let directory: ClientDirectory
    let accounts: AppleIDDirectory
    let authorizer: Authorizer
    let sessions: BrowserSessionStore
    let pages: EmulatorPageRenderer
    let policy: OrganizationPolicy

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.get("/auth/authorize") { request, context in
            let language = request.language
            return await answering(request, context, language) {
                let authorize = try await ValidatedAuthorizeRequest.validate(try HTTPExchange.query(request), directory: directory)
                return signInPage(authorize, language: language, accountName: "", error: nil)
            }
        }
        router.post("/auth/authorize") { request, context in
            let language = request.language
            return await answering(request, context, language) {
                let form = try await HTTPExchange.form(request)
                let authorize = try await ValidatedAuthorizeRequest.validate(form, directory: directory)
                return try await submit(form, authorize, language: language)
            }
        }
        return router
    }

    private func submit(_ form: FormFields, _ authorize: ValidatedAuthorizeRequest, language: PageLanguage) async throws -> Response {
        if form["action"] == "cancel" {
            if let session = form.nonEmpty("session") { try await sessions.delete(session) }
            return deliver(
                authorize, [("error", "user_cancelled_authorize")] + (authorize.state.map { [("state", $0)] } ?? []), user: nil, language: language)
        }
        let emailChoice = try AuthorizationScopes.emailChoice(form["email_choice"])
        // Signed in on an earlier page, or signing in now.
        let account: EmulatorConfiguration.AppleID
        var sessionID = form.nonEmpty("session")
        if let id = sessionID, let session = try await sessions.find(id, purpose: .authorize, clientID: authorize.client.clientID),
            let found = try await accounts.account(email: session.email)
        {
            account = found
        } else {
            sessionID = nil
            let accountName = form["account_name"] ?? ""
            guard accountName.utf8.count <= 254, let password = form.nonEmpty("password"),
                let found = try await accounts.authenticate(accountName: accountName, password: password)
            else {
                let message = EmulatorPageRenderer.string("bad_credentials", language)
                return signInPage(authorize, language: language, accountName: String(accountName.prefix(254)), error: message, status: .unauthorized)
            }
            account = found
        }
        // A Work & School account whose organization blocks the app: refused on the redirect, as a cancel is.
        if account.managed != nil, try await policy.isBlocked(email: account.storageKey, bundleID: authorize.client.bundleID) {
            if let sessionID { try await sessions.delete(sessionID) }
            return deliver(
                authorize, [("error", "access_denied")] + (authorize.state.map { [("state", $0)] } ?? []), user: nil, language: language)
        }
        let firstName = form["first_name"]
        let lastName = form["last_name"]
        let first = try await !authorizer.hasGrant(account, client: authorize.client)
        // The names a person types are stored text: StoredTextRule.name (no control characters, at most 64
        // Unicode scalars and 256 bytes).
        if let violation = AuthorizationScopes.nameViolation(firstName) ?? AuthorizationScopes.nameViolation(lastName) {
            let id = try await consentSession(sessionID, account: account, authorize)
            let message =
                switch violation {
                case .controlCharacter: "name_invalid_characters"
                case .tooLong: "name_too_long"
                }
            return try await consentPage(
                authorize, account: account, first: first, session: id, language: language,
                error: EmulatorPageRenderer.string(message, language)
            )
        }
        guard form["action"] == "continue" else {
            let id = try await consentSession(sessionID, account: account, authorize)
            return try await consentPage(authorize, account: account, first: first, session: id, language: language, error: nil)
        }
        if let sessionID { try await sessions.delete(sessionID) }
        let outcome = try await authorizer.authorize(
            client: authorize.client, account: account, scopes: authorize.scopes, nonce: authorize.nonce, redirectURI: authorize.redirectURI,
            consent: ConsentChoices(firstName: firstName, lastName: lastName, emailChoice: emailChoice), device: false,
            includeIDToken: authorize.includeIDToken
        )
        var fields = [("code", outcome.code)]
        if let idToken = outcome.idToken { fields.append(("id_token", idToken)) }
        if let state = authorize.state { fields.append(("state", state)) }
        if let user = outcome.userJSON { fields.append(("user", user)) }
        return deliver(authorize, fields, user: outcome.firstAuthorization ? outcome.userInfo : nil, language: language)
    }

    /// The existing session, or a new one for the consent page.
    private func consentSession(
        _ existing: String?, account: EmulatorConfiguration.AppleID, _ authorize: ValidatedAuthorizeRequest
    ) async throws -> String {
        if let existing { return existing }
        return try await sessions.create(.authorize, email: account.storageKey, clientID: authorize.client.clientID).id
    }

    /// Sends the answer to the (validated) redirect URI per response mode; `user` is the once-only
    /// information as an object, for web_message (the other modes carry it as the `user` field).
    private func deliver(
        _ authorize: ValidatedAuthorizeRequest, _ fields: [(String, String)], user: AuthorizationOutcome.UserInfo?, language: PageLanguage
    ) -> Response {
        switch authorize.responseMode {
        case .query:
            let separator = authorize.redirectURI.contains("?") ? "&" : "?"
            return HTTPExchange.redirect(to: authorize.redirectURI + separator + FormFields.encode(fields))
        case .fragment:
            return HTTPExchange.redirect(to: authorize.redirectURI + "#" + FormFields.encode(fields))
        case .formPost:
            let body = pages.render(
                "form_post", language: language, title: EmulatorPageRenderer.string("redirecting", language),
                values: ["redirect_uri": authorize.redirectURI, "hidden": EmulatorPageRenderer.hidden(fields)]
            )
            return HTTPExchange.html(body, language: language, scriptHash: pages.autoSubmitScriptHash, formPostAnswer: true)
        case .webMessage:
            let value = Dictionary(fields, uniquingKeysWith: { first, _ in first })
            let message: WebMessage
            if let error = value["error"] {
                message = WebMessage(frameID: authorize.frameID, data: nil, error: .init(error: error, state: authorize.state))
            } else {
                let authorization = WebMessage.SignedIn.Authorization(code: value["code"] ?? "", idToken: value["id_token"], state: authorize.state)
                message = WebMessage(frameID: authorize.frameID, data: .init(authorization: authorization, user: user), error: nil)
            }
            // A registered redirect URI is an absolute http(s) URL, so it has an origin.
            guard let origin = WebMessage.targetOrigin(of: authorize.redirectURI) else {
                return pages.errorPage(.invalidRequest("redirect_uri has no origin"), language: language)
            }
            return pages.webMessagePage(message, origin: origin, error: nil, language: language)
        }
    }

    /// For a refused `response_mode=web_message` request: where the error may be posted (the origin of
    /// the `redirect_uri` given, registered or not: the message carries nothing but Apple's error code,
    /// and a browser delivers it only to an opener of that origin) and the script's `frame_id`.
    private static func webMessageTarget(_ request: Request) -> (origin: String, frameID: String?)? {
        guard request.method == .get, let query = try? HTTPExchange.query(request), query["response_mode"] == "web_message",
            let origin = query["redirect_uri"].flatMap(WebMessage.targetOrigin(of:))
        else { return nil }
        return (origin, query["frame_id"].flatMap { WebMessage.isValidFrameID($0) ? $0 : nil })
    }

    private func signInPage(
        _ authorize: ValidatedAuthorizeRequest, language: PageLanguage, accountName: String, error: String?, status: HTTPResponse.Status = .ok
    ) -> Response {
        var values: [String: Any] = [
            "intro": EmulatorPageRenderer.string("sign_in_intro", language, authorize.client.clientID),
            "hidden": EmulatorPageRenderer.hidden(authorize.hiddenFields),
            "account_name": accountName,
        ]
        if let error { values["error"] = error }
        let body = pages.render("sign_in", language: language, title: EmulatorPageRenderer.string("sign_in_title", language), values: values)
        return HTTPExchange.html(body, status: status, language: language)
    }

    private func consentPage(
        _ authorize: ValidatedAuthorizeRequest, account: EmulatorConfiguration.AppleID, first: Bool, session: String, language: PageLanguage,
        error: String?
    ) async throws -> Response {
        let heading = EmulatorPageRenderer.string(first ? "consent_title" : "returning_title", language, authorize.client.clientID)
        var values: [String: Any] = [
            "heading": heading,
            "signed_in_as": EmulatorPageRenderer.string("signed_in_as", language, account.email),
            "hidden": EmulatorPageRenderer.hidden(authorize.hiddenFields + [("session", session)]),
            "ask_name": first && authorize.scopes.contains("name"),
            "ask_email": first && authorize.scopes.contains("email") && account.managed == nil,
            "first_name": account.firstName,
            "last_name": account.lastName,
            "email": account.email,
        ]
        if let managed = account.managed, first && authorize.scopes.contains("email") {
            // No Hide My Email: the organization's address (or none) is what the app gets.
            values["managed_note"] = EmulatorPageRenderer.string(
                managed.email == nil ? "managed_no_email" : "managed_shares", language, managed.organization)
            if let email = managed.email { values["managed_email"] = email }
        } else if first && authorize.scopes.contains("email") {
            let relay = try await authorizer.relayAddress(for: account, client: authorize.client)
            values["relay_email"] = relay
            values["forward_hint"] = EmulatorPageRenderer.string("hide_email_hint", language, account.email)
        }
        if let error { values["error"] = error }
        let body = pages.render("consent", language: language, title: heading, values: values)
        return HTTPExchange.html(body, language: language)
    }

    /// Errors before the redirect URI is validated, and bad input after, are pages (or JSON for API
    /// clients), never a redirect.
    private func answering(
        _ request: Request, _ context: BasicRequestContext, _ language: PageLanguage, _ body: () async throws -> Response
    ) async -> Response {
        do {
            return try await body()
        } catch let error as OAuthError {
            let accept = request.headers[.accept] ?? ""
            if accept.contains("application/json") && !accept.contains("text/html") { return HTTPExchange.error(error) }
            if let target = Self.webMessageTarget(request) {
                let message = WebMessage(frameID: target.frameID, data: nil, error: .init(error: error.code, state: nil))
                return pages.webMessagePage(message, origin: target.origin, error: error, language: language)
            }
            return pages.errorPage(error, language: language)
        } catch {
            context.logger.error("authorize failed", metadata: ["error.type": "\(type(of: error))"])
            return pages.errorPage(.serverError(), language: language)
        }
    }
}

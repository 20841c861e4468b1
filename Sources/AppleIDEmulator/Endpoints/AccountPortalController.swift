import Hummingbird
import JuiceEncodings
import JuiceInfrastructure
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Apple ID portal at `/account`: sign in as an Apple ID, see the apps using Sign in with Apple,
/// Stop Using Apple ID, turn relay forwarding on or off, see the notifications sent, delete the Apple ID.
///
/// The session is an `HttpOnly`, `SameSite=Strict` cookie scoped to `/account`; every change also
/// needs the session's CSRF token.
struct AccountPortalController: Sendable {
    static let cookieName = "emulator_account"
    static let timeFormat = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().time(includingFractionalSeconds: false)

    let accounts: AppleIDDirectory
    let actions: AccountActions
    let sessions: BrowserSessionStore
    let pages: EmulatorPageRenderer
    let inbox: MailInbox
    let policy: OrganizationPolicy

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.get("/account") { request, context in
            let language = request.language
            return await answering(context, language) {
                guard let (id, session) = try await currentSession(request) else {
                    return signInPage(language: language, accountName: "", error: nil)
                }
                let done = (try? HTTPExchange.query(request))?["done"] != nil
                return try await portalPage(
                    session: session, sessionID: id, language: language, message: done ? EmulatorPageRenderer.string("portal_done", language) : nil)
            }
        }
        router.get("/account/mail/{id}") { request, context in
            let language = request.language
            return await answering(context, language) {
                guard let (_, session) = try await currentSession(request) else {
                    return signInPage(language: language, accountName: "", error: nil)
                }
                let id = context.parameters.get("id") ?? ""
                guard id.count <= 64, let message = try await inbox.message(id: id, appleID: session.email) else {
                    throw OAuthError(code: "not_found", description: "no such message in your inbox", status: .notFound)
                }
                let summary = message.summary
                let values: [String: Any] = [
                    "subject": summary.subject.isEmpty ? "—" : summary.subject, "from": summary.from, "to": summary.to,
                    "delivered_to": summary.deliveredTo, "received": summary.receivedDate.formatted(Self.timeFormat), "size": summary.size,
                    "body": message.details.body, "is_html": message.details.bodyType == "text/html",
                ]
                return HTTPExchange.html(pages.render("mail_message", language: language, title: summary.subject, values: values), language: language)
            }
        }
        router.post("/account/sign-in") { request, context in
            let language = request.language
            return await answering(context, language) {
                let form = try await HTTPExchange.form(request)
                let accountName = String((form["account_name"] ?? "").prefix(254))
                guard let password = form.nonEmpty("password"),
                    let account = try await accounts.authenticate(accountName: accountName, password: password)
                else {
                    return signInPage(
                        language: language, accountName: accountName, error: EmulatorPageRenderer.string("bad_credentials", language),
                        status: .unauthorized)
                }
                let (id, _) = try await sessions.create(.portal, email: account.storageKey)
                var response = HTTPExchange.redirect(to: "/account")
                response.status = .seeOther
                response.headers[.setCookie] = "\(Self.cookieName)=\(id); Path=/account; HttpOnly; SameSite=Strict; Max-Age=3600"
                return response
            }
        }
        router.post("/account/stop-using") { request, context in
            await change(request, context) { form, session in
                guard let bundleID = form.nonEmpty("bundle_id") else { throw OAuthError.invalidRequest("bundle_id is required") }
                try await actions.revokeConsent(appleID: session.email, clientID: bundleID)
            }
        }
        router.post("/account/forwarding") { request, context in
            await change(request, context) { form, session in
                guard let teamID = form.nonEmpty("team_id"), let enabled = form["enabled"].flatMap(Bool.init) else {
                    throw OAuthError.invalidRequest("team_id and enabled (true or false) are required")
                }
                try await actions.setEmailForwarding(appleID: session.email, teamID: teamID, enabled: enabled)
            }
        }
        router.post("/account/organization") { request, context in
            await change(request, context) { form, session in
                guard let bundleID = form.nonEmpty("bundle_id"), actions.directory.app(bundleID: bundleID) != nil,
                    let blocked = form["blocked"].flatMap(Bool.init)
                else {
                    throw OAuthError.invalidRequest("bundle_id (a registered app) and blocked (true or false) are required")
                }
                try await policy.setBlocked(email: session.email, bundleID: bundleID, blocked: blocked)
            }
        }
        router.post("/account/test-notification") { request, context in
            await change(request, context) { form, session in
                guard let bundleID = form.nonEmpty("bundle_id") else { throw OAuthError.invalidRequest("bundle_id is required") }
                _ = try await actions.sendTestNotification(appleID: session.email, bundleID: bundleID)
            }
        }
        router.post("/account/delete") { request, context in
            await change(request, context, endsSession: true) { form, session in
                guard form["confirm"] == "yes" else { throw OAuthError.invalidRequest("confirm=yes is required") }
                try await actions.deleteAppleID(session.email)
            }
        }
        router.post("/account/sign-out") { request, context in
            await change(request, context, endsSession: true) { _, _ in }
        }
        return router
    }

    /// A state-changing POST: a live session, its CSRF token, then `perform`, then back to `/account`.
    private func change(
        _ request: Request,
        _ context: BasicRequestContext,
        endsSession: Bool = false,
        _ perform: @escaping @Sendable (FormFields, BrowserSessionStore.Session) async throws -> Void
    ) async -> Response {
        let language = request.language
        return await answering(context, language) {
            let form = try await HTTPExchange.form(request)
            guard let (id, session) = try await currentSession(request) else {
                return signInPage(
                    language: language, accountName: "", error: EmulatorPageRenderer.string("portal_expired", language), status: .unauthorized)
            }
            guard constantTimeEquals(form["csrf"] ?? "", session.csrf) else {
                throw OAuthError(code: "invalid_request", description: "the form has expired; reload the page", status: .forbidden)
            }
            do {
                try await perform(form, session)
            } catch AccountActions.Failure.notFound(let reason) {
                throw OAuthError(code: "not_found", description: reason, status: .notFound)
            } catch AccountActions.Failure.invalid(let reason) {
                throw OAuthError.invalidRequest(reason)
            }
            var response = HTTPExchange.redirect(to: endsSession ? "/account" : "/account?done=1")
            response.status = .seeOther
            if endsSession {
                try await sessions.delete(id)
                response.headers[.setCookie] = "\(Self.cookieName)=; Path=/account; HttpOnly; SameSite=Strict; Max-Age=0"
            }
            return response
        }
    }

    private func currentSession(_ request: Request) async throws -> (String, BrowserSessionStore.Session)? {
        guard let id = request.cookies[Self.cookieName]?.value, !id.isEmpty,
            let session = try await sessions.find(id, purpose: .portal)
        else { return nil }
        return (id, session)
    }

    private func signInPage(language: PageLanguage, accountName: String, error: String?, status: HTTPResponse.Status = .ok) -> Response {
        var values: [String: Any] = ["account_name": accountName]
        if let error { values["error"] = error }
        let body = pages.render("portal_sign_in", language: language, title: EmulatorPageRenderer.string("portal_sign_in", language), values: values)
        return HTTPExchange.html(body, status: status, language: language)
    }

    private func portalPage(
        session: BrowserSessionStore.Session, sessionID: String, language: PageLanguage, message: String?
    ) async throws -> Response {
        let overview = try await actions.overview(appleID: session.email)
        let dateFormat = Date.ISO8601FormatStyle().year().month().day()
        let apps: [[String: Any]] = overview.apps.map { entry in
            var app: [String: Any] = [
                "bundle_id": entry.grant.bundleID,
                "team_id": entry.teamID,
                "since": entry.grant.createdAt.formatted(dateFormat),
                "csrf": session.csrf,
            ]
            if let relay = entry.relay {
                app["relay"] = relay.relayEmail
                app["forwarding_text"] = EmulatorPageRenderer.string(relay.forwarding ? "portal_forwarding_on" : "portal_forwarding_off", language)
                app["forwarding_next"] = relay.forwarding ? "false" : "true"
                app["forwarding_button"] = EmulatorPageRenderer.string(relay.forwarding ? "portal_turn_off" : "portal_turn_on", language)
            }
            return app
        }
        let notifications: [[String: Any]] = overview.notifications.map { entry in
            [
                "type": entry.eventType, "audience": entry.audience, "status": entry.status, "last_result": entry.lastResult ?? "",
                "attempts": entry.attempts,
            ]
        }
        let attempts: [[String: Any]] = overview.attempts.map { attempt in
            [
                "notification_id": attempt.notificationID, "type": attempt.type, "url": attempt.url,
                "attempted": attempt.attemptedAt.date.formatted(Self.timeFormat),
                "result": attempt.httpStatus.map { "HTTP \($0)" } ?? attempt.error ?? "",
                "next": attempt.nextAttemptAt.map { $0.date.formatted(Self.timeFormat) } ?? "—",
            ]
        }
        let mail: [[String: Any]] = try await inbox.messages(appleID: session.email).map { summary in
            [
                "id": summary.id, "from": summary.from, "to": summary.to, "subject": summary.subject.isEmpty ? "—" : summary.subject,
                "received": summary.receivedDate.formatted(Self.timeFormat),
            ]
        }
        var values: [String: Any] = [
            "mail": mail,
            "has_mail": !mail.isEmpty,
            "signed_in_as": EmulatorPageRenderer.string("signed_in_as", language, session.email),
            "apps": apps,
            "notifications": notifications,
            "has_notifications": !notifications.isEmpty,
            "attempts": attempts,
            "has_attempts": !attempts.isEmpty,
            "csrf": session.csrf,
        ]
        if let managed = accounts.configured(email: session.email)?.managed {
            let blocked = try await policy.blockedApps(email: session.email)
            values["managed"] = EmulatorPageRenderer.string("portal_managed", language, managed.organization)
            values["organization_apps"] = actions.directory.configuration.apps.map { app -> [String: Any] in
                let isBlocked = blocked.contains(app.bundleID)
                return [
                    "bundle_id": app.bundleID, "csrf": session.csrf, "blocked_next": isBlocked ? "false" : "true",
                    "state": EmulatorPageRenderer.string(isBlocked ? "portal_blocked" : "portal_allowed", language),
                    "button": EmulatorPageRenderer.string(isBlocked ? "portal_allow" : "portal_block", language),
                ]
            }
        }
        if let message { values["message"] = message }
        let body = pages.render("portal", language: language, title: EmulatorPageRenderer.string("portal_title", language), values: values)
        return HTTPExchange.html(body, language: language)
    }

    private func answering(_ context: BasicRequestContext, _ language: PageLanguage, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as OAuthError {
            return pages.errorPage(error, language: language)
        } catch {
            context.logger.error("account portal failed", metadata: ["error.type": "\(type(of: error))"])
            return pages.errorPage(.serverError(), language: language)
        }
    }
}

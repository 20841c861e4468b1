import AppleSignIn
import Foundation
import Hummingbird
import JuiceEncodings
import JuiceInfrastructure
import Logging
import WebAuthn

/// The pages: `/` (sign-in form, "Sign in with a passkey" and the Sign in with Apple button), `/signup`,
/// `/account` (with its passkeys), and the password, sign-out and delete forms. Each route's group in
/// ``ProtectedRoutes`` says who may reach it (every form post is CSRF-checked by its group).
struct WebController: Sendable {
    let pages: PageRenderer
    let passwords: PasswordAccounts
    let sessions: SessionStore
    let deletion: AccountDeletion
    let cookies: SessionCookies
    let csrf: CSRFProtection
    let time: TimeSource
    /// The account's passkeys, listed on the account page.
    let passkeys: PasskeyStore
    /// The passkey relying party id, for the account page's Signal API calls.
    let passkeyRelyingPartyID: String
    /// Sign in with Apple JS for the login page's popup sign-in; `nil` leaves only the redirect flow.
    var appleScript: AppleJSScript? = nil

    /// A password form.
    struct CredentialsForm: Decodable {
        var username: String?
        var password: String?
    }

    /// A form with only an optional confirmation (its CSRF token is its group's).
    struct ActionForm: Decodable {
        var confirm: String?
    }

    /// The notices `/` and `/account` can show (`?notice=`); anything else is ignored.
    static let notices: Set<String> = [
        "cancelled", "signed_out", "deleted", "linked", "welcome", "password_changed", "session_ended", "sessions_ended", "passkey_added",
        "passkey_renamed", "passkey_removed",
    ]

    func addRoutes(to routes: ProtectedRoutes) {
        routes.openReads.get("/") { request, context in
            if context.signedIn?.viaCookie == true { return Response.seeOther("/account") }
            return formPage(.login, request, context, username: "", error: nil)
        }
        routes.openReads.get("/signup") { request, context in
            if context.signedIn?.viaCookie == true { return Response.seeOther("/account") }
            return formPage(.signup, request, context, username: "", error: nil)
        }
        routes.forms.post("/signin") { request, context in
            let form = try await request.form(CredentialsForm.self)
            do {
                let (sessionToken, _, _) = try await passwords.signIn(
                    username: form.username ?? "", password: form.password ?? "", address: context.clientAddress
                )
                return signedIn(sessionToken: sessionToken, replacing: context.signedIn, location: "/account")
            } catch let error as any ServerErrorConvertible where error.serverError.status.code < 500 {
                return formPage(.login, request, context, username: form.username ?? "", error: error.serverError)
            }
        }
        routes.forms.post("/signup") { request, context in
            let form = try await request.form(CredentialsForm.self)
            do {
                let (sessionToken, _, _) = try await passwords.signUp(
                    username: form.username ?? "", password: form.password ?? "", address: context.clientAddress)
                return signedIn(sessionToken: sessionToken, replacing: context.signedIn, location: "/account?notice=welcome")
            } catch let error as any ServerErrorConvertible where error.serverError.status.code < 500 {
                return formPage(.signup, request, context, username: form.username ?? "", error: error.serverError)
            }
        }
        routes.signedInPages.get("/account") { request, context in
            try await accountPage(request, context.signedIn)
        }
        // Signed in or not: signing out twice, or from a page whose session already ended, still lands on the login page.
        routes.forms.post("/signout") { request, context in
            if let signedIn = context.signedIn { try await sessions.end(sessionID: signedIn.session.id) }
            return signedOut(location: "/?notice=signed_out")
        }
        routes.signedInForms.post("/account/delete") { request, context in
            let form = try await request.form(ActionForm.self)
            guard form.confirm == "yes" else { return Response.seeOther("/account") }
            try await deletion.delete(accountID: context.signedIn.account.id, logger: context.logger)
            return signedOut(location: "/?notice=deleted")
        }
    }

    // MARK: - Responses

    private func signedIn(sessionToken: String, replacing previous: SignedIn?, location: String) -> Response {
        var response = Response.seeOther(location)
        response.setCookie(cookies.session(sessionToken))
        response.setCookie(csrf.rotate())
        return response
    }

    private func signedOut(location: String) -> Response {
        var response = Response.seeOther(location)
        response.setCookie(cookies.clearedSession())
        response.setCookie(csrf.rotate())
        return response
    }

    func notice(_ request: Request, _ language: PageLanguage) -> String? {
        guard let key = request.uri.queryParameters.get("notice"), Self.notices.contains(key) else { return nil }
        return PageStrings.string("notice_" + key, language)
    }

    /// The two pages with a username form: log in and sign up.
    private enum FormPage: String {
        case login
        case signup
    }

    /// The login or sign-up page: the form (CSRF token, the username typed so far), the Apple
    /// button, an error with its status (a 429 keeps its `Retry-After`), and the page's own script
    /// policy (Sign in with Apple JS on the login page, the password meter on the sign-up page).
    private func formPage(_ page: FormPage, _ request: Request, _ context: AppRequestContext, username: String, error: ServerError?) -> Response {
        let language = request.language
        let (token, cookie) = csrf.token(for: request, signedIn: context.signedIn)
        let (type, style): (AppleIDButton.ButtonType, AppleIDButton.Style) = page == .login ? (.signIn, .black) : (.signUp, .whiteOutline)
        let button = (try? AppleIDButton(type: type, style: style, width: 280, height: 44, cornerRadius: 10, language: language))?
            .html(href: "/auth/apple")
        var values: [String: Any] = ["csrf": token, "username": String(username.prefix(64)), "button": button ?? ""]
        if page == .login {
            if let appleScript { values["apple_script"] = appleScript.scriptURL(language) }
            if let notice = notice(request, language) { values["notice"] = notice }
        }
        if let message = error?.localizedReason(language) { values["error"] = message }
        var response = pages.response(
            pages.render(page.rawValue, language: language, title: PageStrings.string(page.rawValue + "_title", language), values: values),
            status: error?.status ?? .ok, language: language
        )
        if let error { response.headers.append(contentsOf: error.headers) }
        switch page {
        case .login:
            response.headers[.contentSecurityPolicy] = appleScript?.contentSecurityPolicy ?? PasskeyScripts.loginContentSecurityPolicy
        case .signup:
            response.headers[.contentSecurityPolicy] = PasskeyScripts.signUpContentSecurityPolicy
        }
        if let cookie { response.setCookie(cookie) }
        return response
    }

    /// A time as the account page shows it: `2026-11-23 10:19 UTC`.
    static func displayTime(_ date: Date) -> String {
        String(date.formatted(.iso8601).prefix(16)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    /// The account page, with `error` (and its status) when a form on it was refused.
    func accountPage(_ request: Request, _ signedIn: SignedIn, error: ServerError? = nil) async throws -> Response {
        let account = signedIn.account
        let language = request.language
        let current = signedIn.session.id
        let active = try await sessions.activeSessions(accountID: account.id, now: time.now)
        let keys = try await passkeys.credentials(accountID: account.id)
        let (token, cookie) = csrf.token(for: request, signedIn: signedIn)
        let button = (try? AppleIDButton(type: .continue, style: .black, width: 280, height: 44, cornerRadius: 10, language: language))?
            .html(href: "/auth/apple")
        var values: [String: Any] = [
            "csrf": token,
            "user_identifier": account.apple?.subject ?? account.id,
            "given_name": account.givenName ?? "",
            "family_name": account.familyName ?? "",
            "private_email": account.isPrivateEmail,
            "apple_linked": account.apple != nil,
            "button": button ?? "",
            "sessions": active.map { session -> [String: Any] in
                var row: [String: Any] = [
                    "id": session.id, "method": PageStrings.string("method_" + session.method.rawValue, language),
                    "created": session.createdAt.formatted(.iso8601), "created_text": Self.displayTime(session.createdAt),
                    "current": session.id == current,
                ]
                if let seen = session.lastSeenAt {
                    row["last_seen"] = seen.formatted(.iso8601)
                    row["last_seen_text"] = Self.displayTime(seen)
                }
                return row
            },
            "has_other_sessions": active.contains { $0.id != current },
        ]
        values.merge(passkeyValues(request, signedIn, keys)) { _, passkey in passkey }
        if let removed = try await removedPasskey(request) { values["removed_passkey"] = Base64URL.encode(removed) }
        if let email = account.email { values["email"] = email }
        if let username = account.username { values["username"] = username }
        if let notice = notice(request, language) { values["notice"] = notice }
        if let message = error?.localizedReason(language) { values["error"] = message }
        var response = pages.response(
            pages.render("account", language: language, title: PageStrings.string("account_title", language), values: values),
            status: error?.status ?? .ok, language: language
        )
        response.headers[.contentSecurityPolicy] = PasskeyScripts.accountContentSecurityPolicy
        if let cookie { response.setCookie(cookie) }
        return response
    }

    /// The account page's passkey section: the list, what the Signal API calls need (the RP ID, the
    /// account's user handle and the ids the server accepts), and whether to offer a passkey (signed in
    /// with a password, none yet, not dismissed here).
    private func passkeyValues(_ request: Request, _ signedIn: SignedIn, _ keys: [PasskeyCredential]) -> [String: Any] {
        let ids = keys.map { Base64URL.encode($0.credentialID) }
        var values: [String: Any] = [
            "passkey_rp_id": passkeyRelyingPartyID,
            "passkeys": keys.map { key -> [String: Any] in
                var row: [String: Any] = [
                    "id": Base64URL.encode(key.credentialID), "name": key.name, "created": key.createdAt.formatted(.iso8601),
                    "created_text": Self.displayTime(key.createdAt),
                    // The provider named by the AAGUID; an unknown one is "Passkey" in the page's language.
                    "provider": key.providerName == PasskeyProviders.unnamed
                        ? PageStrings.string("method_passkey", request.language) : key.providerName,
                ]
                if let used = key.lastUsedAt {
                    row["last_used"] = used.formatted(.iso8601)
                    row["last_used_text"] = Self.displayTime(used)
                }
                return row
            },
            "passkey_offer": signedIn.session.method == .password && keys.isEmpty && request.cookies[cookies.passkeyOfferName] == nil,
            // An automatic upgrade (conditional create) right after a password sign-in, for an account without a passkey.
            "passkey_upgrade": keys.isEmpty && PasskeyUpgrade.allows(signedIn, now: time.now),
        ]
        if let handle = keys.first?.userHandle {
            values["passkey_user_id"] = Base64URL.encode(handle)
            values["passkey_ids"] = ids.joined(separator: " ")
        }
        return values
    }

    /// After a removal (`?notice=passkey_removed&removed={id}`), the removed passkey's id for
    /// `signalUnknownCredential` — only when no account has a passkey with that id, so a link someone
    /// crafted cannot make a browser's passkey manager drop a passkey that still works.
    private func removedPasskey(_ request: Request) async throws -> [UInt8]? {
        guard request.uri.queryParameters.get("notice") == "passkey_removed", let text = request.uri.queryParameters.get("removed"),
            let id = Base64URL.decode(String(text)), (1...AuthenticatorData.maximumCredentialIDLength).contains(id.count)
        else { return nil }
        return try await passkeys.credential(id: id) == nil ? id : nil
    }
}

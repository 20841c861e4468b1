import AppleSignIn
import Foundation
import Hummingbird
import Logging

/// Resolves the session a request proves: `Authorization: Bearer <token>` or the session cookie.
/// An unknown or expired token leaves the request signed out (routes decide what that means).
struct SessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let sessions: SessionStore
    let accounts: AccountStore
    let cookies: SessionCookies
    let time: TimeSource

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var token: String?
        var viaCookie = false
        if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") {
            token = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        } else if let cookie = request.cookies[cookies.sessionName]?.value, !cookie.isEmpty {
            token = cookie
            viaCookie = true
        }
        if let token, token.utf8.count <= 256, let session = try await sessions.session(token: token, now: time.now),
            let account = try await accounts.account(id: session.accountID)
        {
            context.signedIn = SignedIn(session: session, account: account, viaCookie: viaCookie)
            let now = time.now
            if session.needsSeenUpdate(now: now) {
                // Last-seen is informational (the sessions list): failing to record it never fails the request.
                do {
                    try await sessions.recordSeen(sessionID: session.id, at: now)
                } catch {
                    context.logger.debug("could not record session use", metadata: ["error.type": "\(type(of: error))"])
                }
            }
        }
        return try await next(request, context)
    }
}

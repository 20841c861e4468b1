import AppleSignIn
import Foundation
import Hummingbird
import ServiceLifecycle

/// `GET /api/events`: server-sent events for the signed-in session, so that a long-running client
/// learns when Apple revokes its user's credential (what AuthenticationServices'
/// `credentialRevokedNotification` tells an app) or when its session ends.
///
/// The stream (`text/event-stream`) starts with `event: ready` (`{"state": …}`, the Apple ID's
/// credential state, or `notFound` for a password account), then sends a comment every
/// ``heartbeatInterval`` and at most one of:
///
/// - `event: credential-revoked`, `{"state": "revoked"|"transferred"|"notFound", "user": sub}`, when
///   the account's Apple ID is no longer authorized (consent withdrawn, Apple ID deleted, refresh
///   token refused, app transferred, account deleted);
/// - `event: session-ended`, `{}`, when the session was signed out or expired;
///
/// after which the stream ends. Each stream re-reads the database every ``pollInterval``, so it
/// works the same behind a load balancer whichever instance applied the change; streams end on
/// graceful shutdown and after ``maximumDuration`` (clients reconnect).
struct EventsController: Sendable {
    let sessions: SessionStore
    let lifecycle: AppleLifecycleStore
    let cookies: SessionCookies
    let time: TimeSource
    /// How often a stream re-reads its session and credential state.
    var pollInterval: Duration = .seconds(1)
    /// How often an idle stream sends a comment (keeps proxies from closing it).
    var heartbeatInterval: Duration = .seconds(15)
    /// How long one stream lasts at most.
    var maximumDuration: Duration = .seconds(3600)

    var endpoints: RouteCollection<SignedInContext> {
        let routes = RouteCollection(context: SignedInContext.self)
        routes.get("/api/events") { request, context -> Response in
            let signedIn = context.signedIn
            guard let token = sessionToken(in: request) else {
                throw ServerError.unauthorized("a valid session cookie or bearer token is required")
            }
            let subject = signedIn.account.apple?.subject
            let initial = try await state(of: subject)
            let watch = Watch(controller: self, token: token, subject: subject)
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    try await writer.write(Self.event("ready", ["state": initial.rawValue]))
                    if let ending = try await watch.run(writer: &writer) { try await writer.write(ending) }
                    try await writer.finish(nil)
                }
            )
        }
        return routes
    }

    /// The session token the request proves, as ``SessionMiddleware`` reads it.
    private func sessionToken(in request: Request) -> String? {
        if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") {
            return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        return request.cookies[cookies.sessionName]?.value
    }

    private func state(of subject: String?) async throws -> CredentialState {
        guard let subject else { return .notFound }
        return try await lifecycle.credentialState(subject: subject)
    }

    /// One event in the text/event-stream format.
    static func event(_ name: String, _ data: [String: String]) -> ByteBuffer {
        let json = (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ByteBuffer(string: "event: \(name)\ndata: \(json)\n\n")
    }

    /// Follows one session until something happens, shutdown, or the maximum duration.
    struct Watch: Sendable {
        let controller: EventsController
        let token: String
        let subject: String?

        /// Returns the final event to send, or `nil` when the stream just ends.
        func run(writer: inout any ResponseBodyWriter) async throws -> ByteBuffer? {
            let start = ContinuousClock.now
            var lastWrite = start
            while ContinuousClock.now - start < controller.maximumDuration {
                do {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: controller.pollInterval) }
                } catch {
                    return nil  // shutdown (or the client went away): end the stream
                }
                if let ending = try await check() { return ending }
                if ContinuousClock.now - lastWrite >= controller.heartbeatInterval {
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    lastWrite = ContinuousClock.now
                }
            }
            return nil
        }

        /// The event that ends the stream, if the credential or the session changed.
        ///
        /// The session is read before the credential state: a revocation ends the sessions and
        /// revokes the credential in one transaction, so a session seen gone while the credential
        /// still reads authorized is a sign-out, never a revocation half-seen.
        private func check() async throws -> ByteBuffer? {
            let sessionActive = try await controller.sessions.session(token: token, now: controller.time.now) != nil
            if let subject {
                let state = try await controller.lifecycle.credentialState(subject: subject)
                if state != .authorized {
                    return EventsController.event("credential-revoked", ["state": state.rawValue, "user": subject])
                }
            }
            return sessionActive ? nil : EventsController.event("session-ended", [:])
        }
    }
}

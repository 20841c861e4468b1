import AppleSignIn
import Foundation
import Hummingbird

/// The web Sign in with Apple flow, without HTTP: ``begin(session:)`` makes the authorize URL,
/// ``complete(formBody:)`` turns Apple's `form_post` answer into a signed-in account.
///
/// The callback is a cross-site POST that carries no cookies, so everything it needs comes from the
/// consumed `state`: the nonce, the account to link, the session to replace.
///
/// ```swift
/// let url = try await signIn.begin(session: currentSession)  // redirect the browser there
/// // … Apple posts back:
/// switch try await signIn.complete(formBody: body) {
/// case .signedIn(let token, let result): setCookie(token); redirect("/account")
/// case .cancelled: redirect("/?notice=cancelled")
/// }
/// ```
struct AppleWebSignIn: Sendable {
    /// The result of Apple's answer.
    enum Outcome: Sendable {
        /// Signed in: the new session's token (give it to the browser) and the account.
        case signedIn(token: String, result: AppleSignInResult)
        /// The person cancelled at Apple.
        case cancelled
        /// A native relay's answer: send the browser to this loopback URL (Apple's fields in the query).
        case relayed(URL)
    }

    let configuration: ServerConfiguration
    /// Verifies, redeems and records; it should accept only the web client id (the Services ID).
    let pipeline: AppleSignInPipeline
    let authorizations: any AuthorizationStore
    let random: ServerRandom
    let time: TimeSource
    var metrics = SignInMetrics()

    /// Stores a fresh single-use `state` and `nonce` and returns Apple's authorize URL
    /// (`response_type=code id_token`, `response_mode=form_post`, the configured scopes).
    /// - Parameter session: The current session, if any: its account gets the Apple ID linked.
    func begin(session: Session?) async throws -> URL {
        try await beginWeb(session: session).url(appleBaseURL: configuration.apple.appleBaseURL)
    }

    /// Stores a fresh single-use `state` and `nonce` for a web sign-in and returns the authorize
    /// request they belong to (the redirect flow turns it into a URL; the popup flow hands its fields
    /// to Sign in with Apple JS).
    /// - Parameter session: The current session, if any: its account gets the Apple ID linked.
    func beginWeb(session: Session?) async throws -> AuthorizeRequest {
        let nonce = random.token()
        return try await authorize(nonce: nonce, for: .web(nonce: nonce, linkAccountID: session?.accountID, replacesSessionID: session?.id))
    }

    /// Starts a native relay sign-in (`GET /auth/apple/native`): stores a pending authorization with
    /// purpose ``PendingAuthorization/Purpose/native``, the client's loopback URI and `state`, and
    /// returns Apple's authorize URL carrying the client's `nonce` (the SHA-256 hex of its raw nonce)
    /// and a fresh server `state`.
    /// - Throws: ``ServerError`` `invalid_redirect_uri` or `invalid_request`.
    func beginNative(redirectURI: String?, state: String?, nonce: String?) async throws -> URL {
        let target = try LoopbackRedirectURI(redirectURI ?? "")
        guard let state, !state.isEmpty, state.utf8.count <= 512 else { throw ServerError.invalidRequest("state is required (at most 512 bytes)") }
        guard let nonce, !nonce.isEmpty, nonce.utf8.count <= 512 else { throw ServerError.invalidRequest("nonce is required (at most 512 bytes)") }
        return try await authorize(nonce: nonce, for: .native(relayRedirectURI: target.url.absoluteString, relayState: state))
            .url(appleBaseURL: configuration.apple.appleBaseURL)
    }

    /// Saves a pending authorization under a fresh `state` and returns Apple's authorize request for it
    /// (`response_type=code id_token`, `response_mode=form_post` to the callback, the configured scopes).
    private func authorize(nonce: String, for purpose: PendingAuthorization.Purpose) async throws -> AuthorizeRequest {
        let now = Date(timeIntervalSince1970: time.now.timeIntervalSince1970.rounded(.down))
        let request = AuthorizeRequest(
            clientID: configuration.apple.clientID,
            redirectURI: configuration.redirectURI,
            responseType: .codeAndIDToken,
            responseMode: .formPost,
            scopes: configuration.apple.scopes,
            state: random.token(),
            nonce: nonce
        )
        // The URL is built first: a request Apple would refuse stores nothing.
        _ = try request.url(appleBaseURL: configuration.apple.appleBaseURL)
        try await authorizations.save(
            PendingAuthorization(
                state: request.state, purpose: purpose, createdAt: now,
                expiresAt: now.addingTimeInterval(configuration.authorizationLifetime)
            )
        )
        return request
    }

    /// Handles Apple's `form_post`: consumes the state, verifies the identity token (issuer, audience,
    /// expiry, nonce, `c_hash`), claims the code, exchanges it, stores the sealed refresh token, finds
    /// or creates the account and starts a session.
    /// - Throws: ``ServerError`` (4xx for replays, forgeries and bad input; 503 when Apple is unreachable).
    func complete(formBody: String) async throws -> Outcome {
        try await complete(Result { () throws(AuthorizationResponseError) in try AuthorizationResponse(formBody: formBody) })
    }

    /// Handles Apple's answer given as fields (what Sign in with Apple JS resolved with), with exactly
    /// the checks of ``complete(formBody:)``.
    func complete(fields: [(String, String)]) async throws -> Outcome {
        try await complete(Result { () throws(AuthorizationResponseError) in try AuthorizationResponse(fields: fields) })
    }

    private func complete(_ parsed: Result<AuthorizationResponse, AuthorizationResponseError>) async throws -> Outcome {
        do {
            let outcome = try await run(parsed)
            switch outcome {
            case .signedIn: metrics.record(.apple, outcome: "success")
            case .cancelled: metrics.record(.apple, outcome: "cancelled")
            case .relayed: break
            }
            return outcome
        } catch let error as any ServerErrorConvertible {
            metrics.record(.apple, outcome: error.serverError.code.rawValue)
            throw error
        }
    }

    private func run(_ parsed: Result<AuthorizationResponse, AuthorizationResponseError>) async throws -> Outcome {
        let response: AuthorizationResponse
        do {
            response = try parsed.get()
        } catch {
            // Whatever Apple said, the state is spent.
            if let state = error.state, let pending = try await authorizations.consume(state: state, now: time.now),
                case .native(let target, let relayState) = pending.purpose
            {
                return try Self.relay(to: target, state: relayState, [("error", error.appleError ?? error.code.rawValue)])
            }
            if error.code == .userCancelled { return .cancelled }
            if error.code == .appleError {
                throw ServerError(
                    .appleError, status: .badRequest, "Apple could not complete the sign-in (\(error.appleError?.prefix(64) ?? "error"))")
            }
            throw ServerError.invalidRequest("Apple's answer is malformed: \(error.reason)")
        }
        guard let pending = try await authorizations.consume(state: response.state, now: time.now) else {
            throw ServerError(.invalidState, status: .badRequest, "this sign-in has expired or was already used; start again")
        }
        switch pending.purpose {
        case .native(let target, let relayState):
            // The client verifies nothing itself: it posts these to /api/auth/apple, which does.
            var fields = [("code", response.code)]
            if let idToken = response.idToken { fields.append(("id_token", idToken)) }
            if let user = response.user, let json = try? JSONEncoder().encode(user) { fields.append(("user", String(decoding: json, as: UTF8.self))) }
            return try Self.relay(to: target, state: relayState, fields)
        case .web(let nonce, let linkAccountID, let replacesSessionID):
            guard let idToken = response.idToken else {
                throw ServerError(.invalidIdentityToken, status: .badRequest, "Apple's answer has no identity token")
            }
            let (token, result) = try await pipeline.signIn(
                .init(
                    identityToken: idToken, authorizationCode: response.code, nonce: nonce, requiresNonce: true,
                    givenName: response.user?.name?.firstName,
                    familyName: response.user?.name?.lastName, linkAccountID: linkAccountID, replacesSessionID: replacesSessionID
                )
            )
            return .signedIn(token: token, result: result)
        }
    }

    /// The loopback URL that hands Apple's answer (and the client's own `state`) to a native client.
    static func relay(to target: String, state: String, _ fields: [(String, String)]) throws -> Outcome {
        let uri = try LoopbackRedirectURI(target)
        return .relayed(uri.appending(fields + [("state", state)]))
    }
}

import AppleSignIn
import Foundation
import Hummingbird
import JuiceEncodings

/// The web Sign in with Apple flow, without HTTP: ``begin(session:browser:)`` makes the authorize
/// URL, ``complete(formBody:)`` checks and consumes Apple's `form_post` answer, and
/// ``finish(sealed:browser:sessionID:)`` signs in, in the browser that started the flow only.
///
/// The callback is a cross-site POST that carries no Lax cookie, so what it needs comes from the
/// consumed `state` (the nonce, the account to link, the session to replace), and what it cannot
/// check there (the browser, ``FlowBinding``) is checked at the same-site finish it hands over to
/// (``CallbackHandoff``).
///
/// ```swift
/// let url = try await signIn.begin(session: currentSession, browser: flowID)  // redirect the browser there
/// // … Apple posts back:
/// switch try await signIn.complete(formBody: body) {
/// case .handoff(let sealed): redirect("/auth/apple/finish?answer=" + sealed)
/// case .cancelled: redirect("/?notice=cancelled")
/// …
/// }
/// // … the browser comes back with its cookies:
/// let (sessionToken, result) = try await signIn.finish(sealed: sealed, browser: flowIDFromCookie, sessionID: currentSession?.id)
/// ```
struct AppleWebSignIn: Sendable {
    /// The result of Apple's answer.
    enum Outcome: Sendable {
        /// The person cancelled at Apple.
        case cancelled
        /// A loopback bridge's answer: send the browser to this loopback URL (Apple's fields in the query).
        case bridged(URL)
        /// A web answer, its state consumed, sealed for ``finish(sealed:browser:sessionID:)`` in the
        /// browser that started it.
        case handoff(sealed: String)
    }

    let configuration: ServerConfiguration
    /// Verifies, redeems and records; it should accept only the web client id (the Services ID).
    let pipeline: AppleSignInPipeline
    let authorizations: AuthorizationStore
    let random: ServerRandom
    let time: TimeSource
    /// Binds web flows to the browser that started them.
    let binding: FlowBinding
    /// Carries web answers from the callback to the finish.
    let handoff: CallbackHandoff
    var metrics = SignInMetrics()

    /// Stores a fresh single-use `state` and `nonce` and returns Apple's authorize URL
    /// (`response_type=code id_token`, `response_mode=form_post`, the configured scopes).
    /// - Parameters:
    ///   - session: The current session, if any: its account gets the Apple ID linked.
    ///   - browser: The starting browser's flow id (``FlowBinding/start(_:)``); the state is bound to it.
    func begin(session: Session?, browser: String) async throws -> URL {
        try await beginWeb(session: session, browser: browser).url(appleBaseURL: configuration.apple.appleBaseURL)
    }

    /// Stores a fresh single-use `state` and `nonce` for a web sign-in and returns the authorize
    /// request they belong to (the redirect flow turns it into a URL; the popup flow hands its fields
    /// to Sign in with Apple JS).
    /// - Parameters:
    ///   - session: The current session, if any: its account gets the Apple ID linked.
    ///   - browser: The starting browser's flow id (``FlowBinding/start(_:)``); the state is bound to it.
    func beginWeb(session: Session?, browser: String) async throws -> AuthorizeRequest {
        let nonce = random.token()
        return try await authorize(
            nonce: nonce, state: binding.state(for: browser),
            for: .web(nonce: nonce, linkAccountID: session?.accountID, replacesSessionID: session?.id))
    }

    /// Starts a loopback bridge sign-in (`GET /auth/apple/native`): stores a pending authorization with
    /// purpose ``PendingAuthorization/Purpose/loopbackBridge``, the client's loopback URI and `state`, and
    /// returns Apple's authorize URL carrying the client's `nonce` (the SHA-256 hex of its raw nonce)
    /// and a fresh server `state`.
    /// - Throws: ``ServerError`` `invalid_redirect_uri` or `invalid_request`.
    func beginLoopbackBridge(redirectURI: String?, state: String?, nonce: String?) async throws -> URL {
        let target = try LoopbackRedirectURI(redirectURI ?? "")
        guard let state, !state.isEmpty, state.utf8.count <= 512 else { throw ServerError.invalidRequest("state is required (at most 512 bytes)") }
        guard let nonce, !nonce.isEmpty, nonce.utf8.count <= 512 else { throw ServerError.invalidRequest("nonce is required (at most 512 bytes)") }
        // Not bound to a browser cookie: the native client checks its own state and nonce in what the
        // bridge hands it, so an answer it did not ask for is refused there.
        return try await authorize(
            nonce: nonce, state: random.token(), for: .loopbackBridge(bridgeRedirectURI: target.url.absoluteString, bridgeState: state)
        )
        .url(appleBaseURL: configuration.apple.appleBaseURL)
    }

    /// Saves a pending authorization under a fresh `state` and returns Apple's authorize request for it
    /// (`response_type=code id_token`, `response_mode=form_post` to the callback, the configured scopes).
    private func authorize(nonce: String, state: String, for purpose: PendingAuthorization.Purpose) async throws -> AuthorizeRequest {
        let now = Date(timeIntervalSince1970: time.now.timeIntervalSince1970.rounded(.down))
        let request = AuthorizeRequest(
            clientID: configuration.apple.clientID,
            redirectURI: configuration.redirectURI,
            responseType: .codeAndIDToken,
            responseMode: .formPost,
            scopes: configuration.apple.scopes,
            state: state,
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

    /// Handles Apple's `form_post`: parses it and consumes the state. A loopback bridge's answer is
    /// bridged; a web answer is sealed for ``finish(sealed:browser:sessionID:)`` (``Outcome/handoff(sealed:)``).
    /// - Throws: ``ServerError`` (4xx for replays, forgeries and bad input).
    func complete(formBody: String) async throws -> Outcome {
        try await complete(Result { () throws(AuthorizationResponseError) in try AuthorizationResponse(formBody: formBody) })
    }

    /// Handles Apple's answer given as fields (what Sign in with Apple JS resolved with), with exactly
    /// the steps of ``complete(formBody:)``.
    func complete(fields: [(String, String)]) async throws -> Outcome {
        try await complete(Result { () throws(AuthorizationResponseError) in try AuthorizationResponse(fields: fields) })
    }

    private func complete(_ parsed: Result<AuthorizationResponse, AuthorizationResponseError>) async throws -> Outcome {
        do {
            let outcome = try await run(parsed)
            switch outcome {
            case .cancelled: metrics.record(.apple, outcome: "cancelled")
            case .bridged, .handoff: break
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
                case .loopbackBridge(let target, let bridgeState) = pending.purpose
            {
                return try Self.bridge(to: target, state: bridgeState, [("error", error.appleError ?? error.code.description)])
            }
            if error.code == .userCancelled { return .cancelled }
            if error.code == .appleError {
                throw ServerError(
                    .appleError, status: .badRequest, "Apple could not complete the sign-in (\(error.appleError?.prefix(64) ?? "error"))")
            }
            throw ServerError.invalidRequest("Apple's answer is malformed: \(error.reason)")
        }
        guard let pending = try await authorizations.consume(state: response.state, now: time.now) else {
            throw ServerError.staleState
        }
        switch pending.purpose {
        case .loopbackBridge(let target, let bridgeState):
            // The client verifies nothing itself: it posts these to /api/auth/apple, which does.
            var fields = [("code", response.code)]
            if let idToken = response.idToken { fields.append(("id_token", idToken)) }
            if let user = response.user, let json = try? JSONEncoder().encode(user) { fields.append(("user", String(decoding: json, as: UTF8.self))) }
            return try Self.bridge(to: target, state: bridgeState, fields)
        case .web(let nonce, let linkAccountID, let replacesSessionID):
            guard response.idToken != nil else {
                throw ServerError(.invalidIdentityToken, status: .badRequest, "Apple's answer has no identity token")
            }
            let answer = CallbackHandoff.Answer(
                state: response.state, nonce: nonce, linkAccountID: linkAccountID, replacesSessionID: replacesSessionID, code: response.code,
                idToken: response.idToken, givenName: response.user?.name?.firstName, familyName: response.user?.name?.lastName,
                expiresAt: Int64(time.now.addingTimeInterval(CallbackHandoff.lifetime).timeIntervalSince1970))
            return .handoff(sealed: try handoff.seal(answer))
        }
    }

    /// Finishes a web sign-in handed over by the callback (or the popup): checks that `browser` is the
    /// one the state was bound to (``FlowBinding``) and, for a link, that `sessionID` is the session
    /// that asked for it; then verifies the identity token (issuer, audience, expiry, nonce, `c_hash`),
    /// claims and exchanges the code, stores the sealed refresh token, finds, creates or links the
    /// account and starts a session.
    /// - Throws: ``ServerError`` `browser_mismatch` (403) from another browser or session,
    ///   `invalid_state` (expired or forged handoff), and the pipeline's errors (4xx for replays,
    ///   forgeries and bad input; 503 when Apple is unreachable).
    func finish(sealed: String, browser: String?, sessionID: String?) async throws -> (sessionToken: String, result: AppleSignInResult) {
        do {
            let answer = try handoff.open(sealed, now: time.now)
            try binding.verify(state: answer.state, browser: browser)
            if answer.linkAccountID != nil, sessionID == nil || sessionID != answer.replacesSessionID {
                throw ServerError(
                    .browserMismatch, status: .forbidden, "this link was started in another session; sign in and start linking again here")
            }
            guard let idToken = answer.idToken else {
                throw ServerError(.invalidIdentityToken, status: .badRequest, "Apple's answer has no identity token")
            }
            let (sessionToken, result) = try await pipeline.signIn(
                .init(
                    identityToken: idToken, authorizationCode: answer.code, expectedNonce: answer.nonce, requiresNonce: true,
                    givenName: answer.givenName, familyName: answer.familyName, linkAccountID: answer.linkAccountID,
                    replacesSessionID: answer.replacesSessionID
                )
            )
            metrics.record(.apple, outcome: "success")
            return (sessionToken, result)
        } catch let error as any ServerErrorConvertible {
            metrics.record(.apple, outcome: error.serverError.code.rawValue)
            throw error
        }
    }

    /// The loopback URL that hands Apple's answer (and the client's own `state`) to a native client.
    static func bridge(to target: String, state: String, _ fields: [(String, String)]) throws -> Outcome {
        let uri = try LoopbackRedirectURI(target)
        return .bridged(uri.appending(fields + [("state", state)]))
    }
}

import AppleSignIn
import Foundation
import Hummingbird

/// Sign in with Apple JS in a popup (`AppleID.auth.signIn()` with `usePopup: true`), without HTTP:
/// ``begin(session:)`` stores a single-use `state` and `nonce` and returns what the page passes to
/// `AppleID.auth.init`; ``complete(_:)`` takes what `signIn()` resolved with and signs in through
/// ``AppleSignInPipeline`` with the form_post callback's checks: the same parsing of Apple's answer,
/// the state consumed atomically, the stored nonce required, `c_hash`, the code exchange with the
/// callback URI, and the once-only name.
///
/// ```swift
/// let start = try await popup.begin(session: currentSession)   // JSON for AppleID.auth.init
/// // … the page posts what signIn() resolved with:
/// let (token, result) = try await popup.complete(answer)
/// ```
struct ApplePopupSignIn: Sendable {
    /// What `AppleID.auth.init` needs (the JSON `POST /auth/apple/popup` answers).
    struct Start: ResponseEncodable, Sendable, Hashable {
        let clientId: String
        let scope: String
        let redirectURI: String
        let state: String
        let nonce: String
        let usePopup = true
    }

    /// What `AppleID.auth.signIn()` resolved with, as the page posts it: `user` is the object Sign in
    /// with Apple JS gives, or the JSON text the form_post carries.
    struct Answer: Decodable, Sendable {
        enum User: Decodable, Sendable {
            case text(String)
            case object(AppleUserInfo)

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) {
                    self = .text(text)
                } else {
                    self = .object(try container.decode(AppleUserInfo.self))
                }
            }
        }

        var code: String?
        var idToken: String?
        var state: String?
        var user: User?

        enum CodingKeys: String, CodingKey {
            case code
            case idToken = "id_token"
            case state
            case user
        }
    }

    private let configuration: ServerConfiguration
    private let pipeline: AppleSignInPipeline
    private let authorizations: any AuthorizationStore
    private let random: ServerRandom
    private let time: TimeSource
    private let metrics: SignInMetrics

    /// Creates the flow. `pipeline` should accept only the web client id (the Services ID).
    init(
        configuration: ServerConfiguration, pipeline: AppleSignInPipeline, authorizations: any AuthorizationStore, random: ServerRandom,
        time: TimeSource, metrics: SignInMetrics = SignInMetrics()
    ) {
        self.configuration = configuration
        self.pipeline = pipeline
        self.authorizations = authorizations
        self.random = random
        self.time = time
        self.metrics = metrics
    }

    /// Stores a pending web authorization (fresh `state` and `nonce`, single use, the authorization
    /// lifetime) and returns the popup's configuration.
    /// - Parameter session: The current session, if any: its account gets the Apple ID linked.
    func begin(session: Session?) async throws -> Start {
        let now = Date(timeIntervalSince1970: time.now.timeIntervalSince1970.rounded(.down))
        let nonce = random.token()
        let state = random.token()
        try await authorizations.save(
            PendingAuthorization(
                state: state, purpose: .web(nonce: nonce, linkAccountID: session?.accountID, replacesSessionID: session?.id), createdAt: now,
                expiresAt: now.addingTimeInterval(configuration.authorizationLifetime)
            )
        )
        return Start(
            clientId: configuration.apple.clientID, scope: configuration.apple.scopes.map(\.rawValue).joined(separator: " "),
            redirectURI: configuration.redirectURI.absoluteString, state: state, nonce: nonce
        )
    }

    /// Signs in with the popup's answer: the new session's token and the account.
    /// - Throws: ``ServerError`` (`invalid_request` for a malformed answer, `invalid_state`,
    ///   `invalid_identity_token`, `invalid_code`, 503 when Apple is unreachable) or a storage error.
    func complete(_ answer: Answer) async throws -> (token: String, result: AppleSignInResult) {
        do {
            let outcome = try await run(answer)
            metrics.record(.apple, outcome: "success")
            return outcome
        } catch let error as any ServerErrorConvertible {
            metrics.record(.apple, outcome: error.serverError.code.rawValue)
            throw error
        }
    }

    private func run(_ answer: Answer) async throws -> (token: String, result: AppleSignInResult) {
        // The form_post's fields, parsed by the same code as the callback's.
        var fields: [(String, String)] = []
        if let code = answer.code { fields.append(("code", code)) }
        if let idToken = answer.idToken { fields.append(("id_token", idToken)) }
        if let state = answer.state { fields.append(("state", state)) }
        switch answer.user {
        case .text(let text): fields.append(("user", text))
        case .object(let user): fields.append(("user", String(decoding: try JSONEncoder().encode(user), as: UTF8.self)))
        case nil: break
        }
        let response: AuthorizationResponse
        do {
            response = try AuthorizationResponse(fields: fields)
        } catch {
            // A malformed answer spends its state, as on the callback.
            if let state = error.state { _ = try await authorizations.consume(state: state, now: time.now) }
            throw ServerError.invalidRequest("Apple's answer is malformed: \(error.reason)")
        }
        guard let pending = try await authorizations.consume(state: response.state, now: time.now),
            case .web(let nonce, let linkAccountID, let replacesSessionID) = pending.purpose
        else {
            throw ServerError(.invalidState, status: .badRequest, "this sign-in has expired or was already used; start again")
        }
        guard let idToken = response.idToken else {
            throw ServerError(.invalidIdentityToken, status: .badRequest, "Apple's answer has no identity token")
        }
        return try await pipeline.signIn(
            .init(
                identityToken: idToken, authorizationCode: response.code, nonce: nonce, requiresNonce: true,
                givenName: response.user?.name?.firstName,
                familyName: response.user?.name?.lastName, linkAccountID: linkAccountID, replacesSessionID: replacesSessionID
            )
        )
    }
}

import AppleSignIn
import Foundation
import Hummingbird

/// Sign in with Apple JS in a popup (`AppleID.auth.signIn()` with `usePopup: true`), without HTTP:
/// ``begin(session:browser:)`` stores a single-use `state` (bound to the browser, ``FlowBinding``)
/// and `nonce` and returns what the page passes to `AppleID.auth.init`; ``complete(_:browser:sessionID:)``
/// takes what `signIn()` resolved with and hands it to the form_post callback's own code path
/// (``AppleWebSignIn/complete(fields:)`` then ``AppleWebSignIn/finish(sealed:browser:sessionID:)``):
/// the same parsing of Apple's answer, the state consumed atomically, the browser and session
/// checked, the stored nonce required, `c_hash`, the code exchange with the callback URI, and the
/// once-only name. Only input and output are adapted here.
///
/// ```swift
/// let start = try await popup.begin(session: currentSession, browser: flowID)   // JSON for AppleID.auth.init
/// // … the page posts what signIn() resolved with (a same-origin request: the flow cookie comes along):
/// let (sessionToken, result) = try await popup.complete(answer, browser: flowIDFromCookie, sessionID: currentSession?.id)
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

    /// The web flow this one adapts: its pending authorizations, pipeline and metrics.
    let web: AppleWebSignIn

    /// Stores a pending web authorization (fresh `state` and `nonce`, single use, the authorization
    /// lifetime) and returns the popup's configuration.
    /// - Parameters:
    ///   - session: The current session, if any: its account gets the Apple ID linked.
    ///   - browser: The starting browser's flow id (``FlowBinding/start(_:)``).
    func begin(session: Session?, browser: String) async throws -> Start {
        let request = try await web.beginWeb(session: session, browser: browser)
        return Start(
            clientId: request.clientID, scope: request.scopes.map(\.rawValue).joined(separator: " "),
            redirectURI: request.redirectURI.absoluteString, state: request.state, nonce: request.nonce ?? ""
        )
    }

    /// Signs in with the popup's answer: the new session's token and the account.
    /// - Parameters:
    ///   - browser: The flow id of the browser that posts it (its cookie).
    ///   - sessionID: The session of that browser, if signed in with the cookie.
    /// - Throws: ``ServerError`` (`invalid_request` for a malformed answer, `invalid_state`,
    ///   `browser_mismatch`, `invalid_identity_token`, `invalid_code`, 503 when Apple is unreachable)
    ///   or a storage error.
    func complete(_ answer: Answer, browser: String?, sessionID: String?) async throws -> (sessionToken: String, result: AppleSignInResult) {
        // The form_post's fields, checked by the same code as the callback's.
        var fields: [(String, String)] = []
        if let code = answer.code { fields.append(("code", code)) }
        if let idToken = answer.idToken { fields.append(("id_token", idToken)) }
        if let state = answer.state { fields.append(("state", state)) }
        switch answer.user {
        case .text(let text): fields.append(("user", text))
        case .object(let user): fields.append(("user", String(decoding: try JSONEncoder().encode(user), as: UTF8.self)))
        case nil: break
        }
        switch try await web.complete(fields: fields) {
        case .handoff(let sealed):
            return try await web.finish(sealed: sealed, browser: browser, sessionID: sessionID)
        case .cancelled, .bridged:
            // A popup answer never carries a cancellation (the script rejects instead) nor a native
            // bridge's state; the state is spent either way.
            throw ServerError.staleState
        }
    }
}

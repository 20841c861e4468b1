import Crypto
import Foundation
import Hummingbird
import JuiceEncodings

/// Carries a web sign-in's answer from Apple's cross-site `form_post` (which brings no Lax cookie)
/// to the same-site `GET /auth/apple/finish` (which does), where ``FlowBinding`` checks the browser.
///
/// The callback consumes the `state` and seals what the finish needs (the pending authorization and
/// Apple's fields) with AES-256-GCM under a key derived from the server secret, so any instance can
/// open it and nobody can read or forge it. A sealed answer lives ``lifetime`` seconds; replaying it
/// fails at the code exchange (the code is spent once).
struct CallbackHandoff: Sendable {
    /// A web answer whose state was consumed, waiting for its browser.
    struct Answer: Codable, Sendable, Hashable {
        var state: String
        var nonce: String
        var linkAccountID: String?
        var replacesSessionID: String?
        var code: String
        var idToken: String?
        var givenName: String?
        var familyName: String?
        /// Seconds since 1970 after which it is refused.
        var expiresAt: Int64
    }

    /// How long a sealed answer is accepted.
    static let lifetime: TimeInterval = 120

    private let key: SymmetricKey

    init(secret: SymmetricKey) {
        key = secret.derived(for: "juice callback handoff v1")
    }

    /// The sealed answer, base64url (for a query parameter).
    func seal(_ answer: Answer) throws -> String {
        let sealed = try AES.GCM.seal(try JSONEncoder().encode(answer), using: key)
        guard let combined = sealed.combined else { throw ServerError.internalError() }
        return Base64URL.encode(Array(combined))
    }

    /// The answer sealed in `text`, if it is genuine and unexpired at `now`.
    /// - Throws: ``ServerError`` `invalid_state` otherwise.
    func open(_ text: String, now: Date) throws(ServerError) -> Answer {
        guard text.utf8.count <= 16 * 1024, let bytes = Base64URL.decode(text), let box = try? AES.GCM.SealedBox(combined: bytes),
            let plain = try? AES.GCM.open(box, using: key), let answer = try? JSONDecoder().decode(Answer.self, from: plain),
            answer.expiresAt > Int64(now.timeIntervalSince1970)
        else {
            throw ServerError.staleState
        }
        return answer
    }
}

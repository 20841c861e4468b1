import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings

/// Mints session tokens: 32 random bytes (base64url) given once to the client; only their SHA-256
/// is stored.
///
/// ```swift
/// let (token, draft) = tokens.issue(.password)
/// let (account, session) = try await signUps.run(username: name, passwordHash: hash, session: draft)
/// // set `token` as the cookie or return it to the app
/// ```
struct SessionTokens: Sendable {
    /// How long a session lasts.
    let lifetime: TimeInterval
    let random: ServerRandom
    let time: TimeSource

    /// A new token and the draft of the session it will prove.
    func issue(_ method: SignInMethod) -> (sessionToken: String, draft: SessionDraft) {
        let token = random.token()
        let now = Date(timeIntervalSince1970: time.now.timeIntervalSince1970.rounded(.down))
        let draft = SessionDraft(
            id: random.identifier(), tokenHash: Self.hash(token), method: method, createdAt: now, expiresAt: now.addingTimeInterval(lifetime)
        )
        return (token, draft)
    }

    /// The stored form of a token.
    static func hash(_ token: String) -> String {
        sha256Hex(token)
    }
}

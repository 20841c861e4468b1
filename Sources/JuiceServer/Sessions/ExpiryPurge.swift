import AppleSignIn
import Foundation
import Logging

/// Removes expired sessions, sign-in requests, passkey challenges and old spent values (run by a
/// ``PeriodicService``).
struct ExpiryPurge: Sendable {
    let sessions: SessionStore
    let authorizations: AuthorizationStore
    let passkeys: PasskeyStore
    /// How long a native nonce or a passkey sign-in challenge (both ``MintedValues``, with the
    /// authorization lifetime) is accepted: its spent key is kept at least that long (and two minutes).
    let nonceLifetime: TimeInterval
    let time: TimeSource
    let logger: Logger

    /// One purge pass. Spent values are kept a day (Apple's codes live five minutes), or longer if a
    /// nonce or challenge could still be accepted: one whose key was purged could be spent again.
    func purgeOnce() async {
        let now = time.now
        do {
            let sessionCount = try await sessions.purgeExpired(now: now)
            let retention = max(86_400, nonceLifetime + 120)
            let requestCount = try await authorizations.purgeExpired(now: now, spentBefore: now.addingTimeInterval(-retention))
            let challengeCount = try await passkeys.purgeExpiredChallenges(now: now)
            if sessionCount + requestCount + challengeCount > 0 {
                logger.debug(
                    "purged expired rows",
                    metadata: [
                        "sessions": "\(sessionCount)", "requests_and_spent_values": "\(requestCount)", "passkey_challenges": "\(challengeCount)",
                    ])
            }
        } catch {
            logger.warning("purge failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }
}

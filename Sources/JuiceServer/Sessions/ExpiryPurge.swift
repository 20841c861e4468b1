import AppleSignIn
import Foundation
import Logging

/// Removes expired sessions, sign-in requests and old code claims (run by a ``PeriodicService``).
struct ExpiryPurge: Sendable {
    let sessions: any SessionStore
    let authorizations: any AuthorizationStore
    let nonces: any NonceStore
    let time: TimeSource
    let logger: Logger

    /// One purge pass (codes are kept a day: Apple's codes live five minutes).
    func purgeOnce() async {
        let now = time.now
        do {
            let sessionCount = try await sessions.purgeExpired(now: now)
            let requestCount = try await authorizations.purgeExpired(now: now, codesBefore: now.addingTimeInterval(-86_400))
            let nonceCount = try await nonces.purgeExpired(now: now)
            if sessionCount + requestCount + nonceCount > 0 {
                logger.debug(
                    "purged expired rows",
                    metadata: ["sessions": "\(sessionCount)", "requests_and_codes": "\(requestCount)", "native_nonces": "\(nonceCount)"])
            }
        } catch {
            logger.warning("purge failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }
}

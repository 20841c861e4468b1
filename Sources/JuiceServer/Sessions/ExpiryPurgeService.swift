import AppleSignIn
import Foundation
import Logging
import ServiceLifecycle

/// Removes expired sessions, sign-in requests and old code claims every ``interval``, until
/// graceful shutdown.
struct ExpiryPurgeService: Service {
    let sessions: any SessionStore
    let authorizations: any AuthorizationStore
    let interval: Duration
    let time: TimeSource
    let logger: Logger

    func run() async throws {
        let service = self
        await runPeriodically(every: interval, startImmediately: false, logger: logger, failure: "expiry purge pass failed") {
            await service.purgeOnce()
        }
    }

    /// One purge pass (codes are kept a day: Apple's codes live five minutes).
    func purgeOnce() async {
        let now = time.now
        do {
            let sessionCount = try await sessions.purgeExpired(now: now)
            let requestCount = try await authorizations.purgeExpired(now: now, codesBefore: now.addingTimeInterval(-86_400))
            if sessionCount + requestCount > 0 {
                logger.debug("purged expired rows", metadata: ["sessions": "\(sessionCount)", "requests_and_codes": "\(requestCount)"])
            }
        } catch {
            logger.warning("purge failed", metadata: ["error.type": "\(type(of: error))"])
        }
    }
}

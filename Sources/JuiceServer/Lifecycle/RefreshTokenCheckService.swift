import Foundation
import Logging
import ServiceLifecycle

/// Runs ``RefreshTokenCheck/checkDue(logger:)`` every ``interval`` until graceful shutdown; each
/// token is still validated at most once a day.
struct RefreshTokenCheckService: Service {
    let check: RefreshTokenCheck
    let interval: Duration
    let logger: Logger

    init(check: RefreshTokenCheck, interval: Duration = .seconds(3600), logger: Logger) {
        self.check = check
        self.interval = interval
        self.logger = logger
    }

    func run() async throws {
        let check = check
        let logger = logger
        await runPeriodically(every: interval, startImmediately: false, logger: logger, failure: "refresh-token check pass failed") {
            try await check.checkDue(logger: logger)
        }
    }
}

import Foundation
import Logging
import ServiceLifecycle

/// Retries queued revocations (``RevocationQueue/retryDue(logger:)``) every ``interval`` until
/// graceful shutdown.
struct RevocationRetryService: Service {
    let queue: RevocationQueue
    let interval: Duration
    let logger: Logger

    init(queue: RevocationQueue, interval: Duration = .seconds(30), logger: Logger) {
        self.queue = queue
        self.interval = interval
        self.logger = logger
    }

    func run() async throws {
        let queue = queue
        let logger = logger
        await runPeriodically(every: interval, startImmediately: true, logger: logger, failure: "revocation retry pass failed") {
            try await queue.retryDue(logger: logger)
        }
    }
}

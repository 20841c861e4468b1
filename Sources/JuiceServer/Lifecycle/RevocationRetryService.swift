import Foundation
import Logging
import ServiceLifecycle

/// Retries queued revocations (``RevocationQueue/retryDue(logger:)``) every ``interval`` until
/// graceful shutdown.
public struct RevocationRetryService: Service {
    let queue: RevocationQueue
    let interval: Duration
    let logger: Logger

    public init(queue: RevocationQueue, interval: Duration = .seconds(30), logger: Logger) {
        self.queue = queue
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await queue.retryDue(logger: logger)
                } catch  where !Task.isCancelled {
                    logger.warning("revocation retry pass failed", metadata: ["error.type": "\(type(of: error))"])
                } catch {
                    return
                }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }
}

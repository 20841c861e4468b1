import Logging
import ServiceLifecycle

/// The loop behind the server's periodic services: runs `pass` every `interval` until graceful
/// shutdown (or cancellation). A pass that throws is logged with `failure` and the next one runs on
/// schedule; a pass cut short by shutdown ends the loop quietly.
///
/// - Parameter startImmediately: Whether the first pass runs at once (a retry queue) or after one
///   interval (a daily check right after start-up would only repeat the last run's work).
func runPeriodically(
    every interval: Duration, startImmediately: Bool, logger: Logger, failure: Logger.Message, _ pass: @escaping @Sendable () async throws -> Void
) async {
    await cancelWhenGracefulShutdown {
        var first = true
        while !Task.isCancelled {
            if !(first && startImmediately) {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
            first = false
            do {
                try await pass()
            } catch  where !Task.isCancelled {
                logger.warning(failure, metadata: ["error.type": "\(type(of: error))"])
            } catch {
                return
            }
        }
    }
}

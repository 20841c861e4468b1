import Logging
import ServiceLifecycle

/// A background pass run every ``interval`` until graceful shutdown: the expiry purge, the daily
/// refresh-token check, the revocation retry (see ``runPeriodically(every:startImmediately:logger:failure:_:)``).
struct PeriodicService: Service {
    /// Time between passes.
    let interval: Duration
    /// Whether the first pass runs at once (a retry queue) or after one interval.
    let startImmediately: Bool
    /// What is logged when a pass throws.
    let failure: Logger.Message
    let logger: Logger
    /// One pass.
    let pass: @Sendable () async throws -> Void

    func run() async {
        await runPeriodically(every: interval, startImmediately: startImmediately, logger: logger, failure: failure, pass)
    }
}

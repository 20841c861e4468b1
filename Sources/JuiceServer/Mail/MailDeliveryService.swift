import Logging
import ServiceLifecycle

/// Drains the mail outbox (``MailDelivery/deliverDue(logger:)``) every ``interval`` until graceful
/// shutdown.
struct MailDeliveryService: Service {
    let delivery: MailDelivery
    let interval: Duration
    let logger: Logger

    init(delivery: MailDelivery, interval: Duration = .seconds(10), logger: Logger) {
        self.delivery = delivery
        self.interval = interval
        self.logger = logger
    }

    func run() async throws {
        let delivery = delivery
        let logger = logger
        await runPeriodically(every: interval, startImmediately: true, logger: logger, failure: "mail delivery pass failed") {
            try await delivery.deliverDue(logger: logger)
        }
    }
}

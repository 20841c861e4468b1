import Metrics

/// Counts sign-ins by method and outcome (`juice_sign_ins_total{method, outcome}`); outcomes are
/// ``ServerError`` codes, so labels stay bounded.
struct SignInMetrics: Sendable {
    private let factory: (any MetricsFactory)?

    /// Counts through swift-metrics' bootstrapped factory.
    init() {
        factory = nil
    }

    /// Counts into `factory` (``ServerMetrics/signIns`` passes the app's registry).
    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Records one attempt.
    func record(_ method: SignInMethod, outcome: String) {
        let dimensions = [("method", method.rawValue), ("outcome", outcome)]
        if let factory {
            Counter(label: "juice_sign_ins_total", dimensions: dimensions, factory: factory).increment()
        } else {
            Counter(label: "juice_sign_ins_total", dimensions: dimensions).increment()
        }
    }
}

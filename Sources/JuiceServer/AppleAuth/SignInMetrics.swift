import Metrics

/// Counts sign-ins by method and outcome (`juice_sign_ins_total{method, outcome}`); outcomes are
/// ``ServerError`` codes, so labels stay bounded.
public struct SignInMetrics: Sendable {
    public init() {}

    /// Records one attempt.
    public func record(_ method: SignInMethod, outcome: String) {
        Counter(label: "juice_sign_ins_total", dimensions: [("method", method.rawValue), ("outcome", outcome)]).increment()
    }
}

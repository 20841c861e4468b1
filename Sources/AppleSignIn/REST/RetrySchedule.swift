/// The setting that says how idempotent calls to Apple are retried (a schedule, not a rule): a bounded number
/// of attempts with exponential backoff and jitter, for transient failures only.
public struct RetrySchedule: Sendable {
    /// Attempts in all, including the first.
    public var maximumAttempts: Int
    /// Wait before the second attempt; doubled for each further one.
    public var initialBackoff: Duration
    /// Upper bound on one wait.
    public var maximumBackoff: Duration

    public init(maximumAttempts: Int = 3, initialBackoff: Duration = .milliseconds(200), maximumBackoff: Duration = .seconds(2)) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// No retries.
    public static let none = RetrySchedule(maximumAttempts: 1)

    /// The wait before attempt `attempt` (2 is the first retry), with up to 50% random jitter.
    func backoff(beforeAttempt attempt: Int) -> Duration {
        let exponent = min(attempt - 2, 16)
        let base = min(initialBackoff * (1 << exponent), maximumBackoff)
        return base * Double.random(in: 0.5...1.0)
    }
}

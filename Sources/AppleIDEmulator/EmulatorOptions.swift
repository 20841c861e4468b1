import Foundation

/// Tunables of a running emulator. The defaults suit everyday use; tests shorten the delays.
public struct EmulatorOptions: Sendable {
    /// How long a replaced signing key stays in `/auth/keys` after a rotation (one day by default).
    public var keyGracePeriod: TimeInterval
    /// How often the notification outbox looks for due deliveries.
    public var outboxPollInterval: Duration
    /// The delay before the second delivery attempt; it doubles for each further attempt.
    public var outboxInitialBackoff: TimeInterval
    /// The longest delay between two attempts.
    public var outboxMaximumBackoff: TimeInterval
    /// Attempts before a notification is given up.
    public var outboxMaximumAttempts: Int
    /// The deadline of one delivery attempt.
    public var outboxRequestTimeout: Duration

    /// Creates options.
    public init(
        keyGracePeriod: TimeInterval = 86_400,
        outboxPollInterval: Duration = .seconds(1),
        outboxInitialBackoff: TimeInterval = 5,
        outboxMaximumBackoff: TimeInterval = 3600,
        outboxMaximumAttempts: Int = 10,
        outboxRequestTimeout: Duration = .seconds(10)
    ) {
        self.keyGracePeriod = keyGracePeriod
        self.outboxPollInterval = outboxPollInterval
        self.outboxInitialBackoff = outboxInitialBackoff
        self.outboxMaximumBackoff = outboxMaximumBackoff
        self.outboxMaximumAttempts = max(1, outboxMaximumAttempts)
        self.outboxRequestTimeout = outboxRequestTimeout
    }

    /// The delay after `attempts` failed attempts: doubling from the initial backoff, capped.
    func backoff(afterAttempts attempts: Int) -> TimeInterval {
        min(outboxMaximumBackoff, outboxInitialBackoff * pow(2, Double(max(0, attempts - 1))))
    }
}

import Foundation

/// The wait before the next try of a durable queue (revocations owed to Apple, queued mail):
/// `initial` after the first failure, doubling with each further one, never more than `maximum`.
func retryBackoff(afterAttempts attempts: Int, initial: TimeInterval, maximum: TimeInterval) -> TimeInterval {
    min(initial * pow(2, Double(min(max(attempts - 1, 0), 20))), maximum)
}

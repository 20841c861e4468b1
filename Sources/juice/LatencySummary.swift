/// Percentiles of a set of latencies (nearest rank: the smallest sample at or above the share).
struct LatencySummary: Sendable, Equatable {
    let count: Int
    let p50: Duration
    let p99: Duration
    let max: Duration

    /// Summarizes `samples`; `nil` when there are none.
    init?(_ samples: [Duration]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        count = sorted.count
        p50 = Self.percentile(0.50, of: sorted)
        p99 = Self.percentile(0.99, of: sorted)
        max = sorted[sorted.count - 1]
    }

    /// The nearest-rank percentile `share` (0–1] of ascending, non-empty `sorted`.
    static func percentile<Sample>(_ share: Double, of sorted: [Sample]) -> Sample {
        let rank = Int((share * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count, rank) - 1)]
    }
}

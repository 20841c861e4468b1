import AppleSignIn

/// An ``AppleKeySource`` whose fetches are recorded as Apple calls (`endpoint="keys"`).
struct TimedAppleKeySource: AppleKeySource {
    let source: any AppleKeySource
    let metrics: ServerMetrics

    /// Wraps `source`.
    init(_ source: any AppleKeySource, metrics: ServerMetrics) {
        self.source = source
        self.metrics = metrics
    }

    func fetchKeys() async throws -> FetchedKeys {
        try await metrics.timingAppleCall(endpoint: "keys", errorCode: { (_: any Error) in "unavailable" }) {
            try await source.fetchKeys()
        }
    }
}

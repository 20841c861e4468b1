import AppleSignIn

/// An ``AppleKeySource`` whose fetches are recorded as Apple calls (`endpoint="keys"`).
public struct TimedAppleKeySource: AppleKeySource {
    let source: any AppleKeySource
    let metrics: ServerMetrics

    /// Wraps `source`.
    public init(_ source: any AppleKeySource, metrics: ServerMetrics) {
        self.source = source
        self.metrics = metrics
    }

    public func fetchKeys() async throws -> FetchedKeys {
        try await metrics.timingAppleCall(endpoint: "keys", errorCode: { (_: any Error) in "unavailable" }) {
            try await source.fetchKeys()
        }
    }
}

import Synchronization

/// The notification endpoints with a delivery in flight: at most one per endpoint, and a bounded number
/// in all, so the delivery service never opens two connections to one endpoint at once and never starts
/// unbounded work.
final class BusyEndpoints: Sendable {
    private let urls = Mutex<Set<String>>([])

    /// Marks `url` busy; `false` when it already is, or when `limit` endpoints already are.
    func claim(_ url: String, limit: Int) -> Bool {
        urls.withLock { urls in
            guard urls.count < limit, !urls.contains(url) else { return false }
            urls.insert(url)
            return true
        }
    }

    /// Whether `url` has a delivery in flight.
    func contains(_ url: String) -> Bool {
        urls.withLock { $0.contains(url) }
    }

    /// Ends `url`'s delivery.
    func release(_ url: String) {
        _ = urls.withLock { $0.remove(url) }
    }

    /// How many endpoints have a delivery in flight.
    var count: Int { urls.withLock { $0.count } }
}

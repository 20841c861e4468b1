import Synchronization

/// The notification endpoints with a delivery in flight: at most one per endpoint, and a bounded number
/// in all, so the delivery service never opens two connections to one endpoint at once and never starts
/// unbounded work.
final class BusyEndpoints: Sendable {
    private let busy = Mutex<Set<String>>([])

    /// Marks `url` busy; `false` when it already is, or when `limit` endpoints already are.
    func claim(_ url: String, limit: Int) -> Bool {
        busy.withLock { urls in
            guard urls.count < limit, !urls.contains(url) else { return false }
            urls.insert(url)
            return true
        }
    }

    /// The endpoints with a delivery in flight now.
    var urls: [String] { busy.withLock { Array($0) } }

    /// Ends `url`'s delivery.
    func release(_ url: String) {
        _ = busy.withLock { $0.remove(url) }
    }
}

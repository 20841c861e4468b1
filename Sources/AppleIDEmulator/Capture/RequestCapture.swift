import Synchronization

/// The last ``capacity`` requests to Apple's endpoints (`GET /emulator/admin/requests`), oldest first;
/// a reset forgets them. Kept in memory, like injected failures: it is test state.
final class RequestCapture: Sendable {
    /// How many requests are kept; older ones are dropped.
    let capacity: Int

    private struct State {
        var nextID = 1
        /// A ring: once full, the oldest request is at `oldest` and each new one replaces it, so a
        /// request costs the same however many are kept.
        var requests: [CapturedRequest] = []
        var oldest = 0

        /// The requests kept, oldest first.
        var inOrder: [CapturedRequest] { Array(requests[oldest...] + requests[..<oldest]) }
    }

    private let state = Mutex(State())

    init(capacity: Int = 1000) {
        self.capacity = max(1, capacity)
    }

    /// Keeps one request (built by `make` with its id), dropping the oldest beyond ``capacity``.
    func record(_ make: (Int) -> CapturedRequest) {
        state.withLock { state in
            let request = make(state.nextID)
            state.nextID += 1
            if state.requests.count < capacity {
                state.requests.append(request)
            } else {
                state.requests[state.oldest] = request
                state.oldest = (state.oldest + 1) % capacity
            }
        }
    }

    /// The requests kept, oldest first: those of `clientID`, or all when it is `nil`.
    func list(clientID: String? = nil) -> [CapturedRequest] {
        state.withLock { state in
            guard let clientID else { return state.inOrder }
            return state.inOrder.filter { $0.clientID == clientID }
        }
    }

    /// Forgets every request and restarts the ids (a reset).
    func reset() {
        state.withLock { $0 = State() }
    }
}

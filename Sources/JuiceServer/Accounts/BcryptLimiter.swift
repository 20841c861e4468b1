import Foundation

/// Bounds how many bcrypt computations run at once, so that a burst of sign-ups (each a deliberately
/// slow hash) cannot starve sign-ins and password changes of the CPU.
///
/// Every hash and verification of ``PasswordHasher`` takes one of ``slots``; up to ``maximumWaiting``
/// callers wait in order for one to free, and a caller beyond that is refused at once with 503
/// `server_busy` and `Retry-After` (``ServerError/busy(retryAfter:)``). A waiting caller is not
/// cancelled early: the queue is short and each hash takes milliseconds.
actor BcryptLimiter {
    /// How many hashes may run at once.
    let slots: Int
    /// How many callers may wait for a slot.
    let maximumWaiting: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The most hashes that ever ran at once (for tests and metrics).
    private(set) var peak = 0
    /// Hashes finished.
    private(set) var completed = 0
    /// Callers waiting for a slot now.
    var waitingCount: Int { waiting.count }

    /// - Parameters:
    ///   - slots: Hashes at once (at least 1); by default one per core.
    ///   - maximumWaiting: Callers that may queue (at least 0); by default 16 per slot.
    init(slots: Int? = nil, maximumWaiting: Int? = nil) {
        let slots = max(1, slots ?? ProcessInfo.processInfo.activeProcessorCount)
        self.slots = slots
        self.maximumWaiting = max(0, maximumWaiting ?? slots * 16)
    }

    /// Runs `work` in a slot.
    /// - Throws: ``ServerError`` `server_busy` when every slot is taken and the queue is full; or what `work` throws.
    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws(ServerError) {
        if running < slots {
            running += 1
            peak = max(peak, running)
            return
        }
        guard waiting.count < maximumWaiting else { throw .busy(retryAfter: 1) }
        // The slot is handed over by `release()`: `running` stays counted for the waiter.
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        completed += 1
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

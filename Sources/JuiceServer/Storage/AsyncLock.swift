/// A first-in, first-out lock for async code: one holder at a time, waiters resume in order.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func lock() async {
        if !isLocked {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func unlock() {
        if waiters.isEmpty {
            isLocked = false
        } else {
            // Ownership passes straight to the next waiter.
            waiters.removeFirst().resume()
        }
    }

    /// Runs `body` holding the lock.
    nonisolated func withLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        await lock()
        do {
            let result = try await body()
            await unlock()
            return result
        } catch {
            await unlock()
            throw error
        }
    }
}

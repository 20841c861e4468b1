/// A first-in, first-out lock for async code: one holder at a time, waiters resume in order (a
/// SQLite connection runs one transaction at a time; this keeps a transaction's statements from
/// interleaving with another's across suspension points).
package actor AsyncLock {
    package init() {}

    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package func lock() async {
        if !isLocked {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    package func unlock() {
        if waiters.isEmpty {
            isLocked = false
        } else {
            // Ownership passes straight to the next waiter.
            waiters.removeFirst().resume()
        }
    }

    /// Runs `body` holding the lock.
    package nonisolated func withLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
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

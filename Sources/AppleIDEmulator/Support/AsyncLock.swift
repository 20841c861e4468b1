/// A first-in, first-out lock for async code: one holder at a time, waiters resume in order.
///
/// The emulator's SQLite connection runs one transaction at a time; this lock keeps a transaction's
/// statements from interleaving with another's across suspension points.
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
}

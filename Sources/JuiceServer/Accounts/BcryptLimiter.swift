import Foundation

/// Bounds how many bcrypt computations run at once, and keeps sign-ups from starving sign-ins.
///
/// Every hash and verification of ``PasswordHasher`` takes one of ``slots``. Hashing a new password
/// (sign-up, change) may hold at most ``hashSlots`` of them, so with two or more slots a verification
/// (sign-in, a current password) always finds capacity that sign-ups cannot take; and when a slot
/// frees, waiting verifications get it before waiting hashes. Up to ``maximumWaiting`` callers wait in
/// order; a caller beyond that is refused at once with 503 `server_busy` and `Retry-After`
/// (``ServerError/busy(retryAfter:)``). A waiting caller is not cancelled early: the queue is short
/// and each hash takes milliseconds.
actor BcryptLimiter {
    /// What a slot is taken for.
    enum Work: Sendable {
        /// Checking a password against a stored (or the decoy) hash: sign-in, a current password.
        case verify
        /// Hashing a new password: sign-up, change.
        case hash
    }

    /// How many bcrypt computations may run at once.
    nonisolated let slots: Int
    /// How many of them may be new-password hashes.
    nonisolated let hashSlots: Int
    /// How many callers may wait for a slot.
    nonisolated let maximumWaiting: Int
    private var running = 0
    private var runningHashes = 0
    private var waitingVerifications: [CheckedContinuation<Void, Never>] = []
    private var waitingHashes: [CheckedContinuation<Void, Never>] = []
    /// The most computations that ever ran at once, and the most hashes (for tests and metrics).
    private(set) var peak = 0
    private(set) var peakHashes = 0
    /// Computations finished.
    private(set) var completed = 0
    /// Callers waiting for a slot now.
    var waitingCount: Int { waitingVerifications.count + waitingHashes.count }

    /// - Parameters:
    ///   - slots: Computations at once (at least 1); by default one per core.
    ///   - maximumWaiting: Callers that may queue (at least 0); by default 16 per slot.
    init(slots: Int? = nil, maximumWaiting: Int? = nil) {
        let slots = max(1, slots ?? ProcessInfo.processInfo.activeProcessorCount)
        self.slots = slots
        self.hashSlots = max(1, slots / 2)
        self.maximumWaiting = max(0, maximumWaiting ?? slots * 16)
    }

    /// Runs `body` in a slot taken for `work`.
    /// - Throws: ``ServerError`` `server_busy` when no slot is free and the queue is full; or what `body` throws.
    func run<T: Sendable>(_ work: Work, _ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire(work)
        defer { release(work) }
        return try await body()
    }

    private func canStart(_ work: Work) -> Bool {
        switch work {
        case .verify: running < slots && waitingVerifications.isEmpty
        case .hash: running < slots && runningHashes < hashSlots && waitingHashes.isEmpty
        }
    }

    private func acquire(_ work: Work) async throws(ServerError) {
        if canStart(work) {
            take(work)
            return
        }
        guard waitingCount < maximumWaiting else { throw .busy(retryAfter: 1) }
        // The slot is taken on the waiter's behalf by `release(_:)`.
        await withCheckedContinuation { continuation in
            switch work {
            case .verify: waitingVerifications.append(continuation)
            case .hash: waitingHashes.append(continuation)
            }
        }
    }

    private func take(_ work: Work) {
        running += 1
        if work == .hash { runningHashes += 1 }
        peak = max(peak, running)
        peakHashes = max(peakHashes, runningHashes)
    }

    private func release(_ work: Work) {
        completed += 1
        running -= 1
        if work == .hash { runningHashes -= 1 }
        // Freed capacity goes to waiting verifications first, then to hashes within their share.
        while running < slots {
            if !waitingVerifications.isEmpty {
                take(.verify)
                waitingVerifications.removeFirst().resume()
            } else if !waitingHashes.isEmpty && runningHashes < hashSlots {
                take(.hash)
                waitingHashes.removeFirst().resume()
            } else {
                break
            }
        }
    }
}

import Synchronization

@testable import AppleIDEmulator

/// The emulator's outbox polls, as ``NotificationDeliveryService/pollObserver`` reports them: a test
/// waits for polls that started nothing instead of sleeping to show a notification is not retried yet.
final class OutboxPolls: Sendable {
    private let started = Mutex<[Int]>([])

    /// Runs `body` with every outbox poll of the emulators it starts recorded here.
    static func observing<T: Sendable>(_ body: @Sendable (OutboxPolls) async throws -> T) async throws -> T {
        let polls = OutboxPolls()
        return try await NotificationDeliveryService.$pollObserver.withValue({ count in polls.started.withLock { $0.append(count) } }) {
            try await body(polls)
        }
    }

    /// How many polls have finished so far: a mark for ``quiet(since:)``.
    var count: Int { started.withLock { $0.count } }

    /// Whether two whole polls finished after `mark` (the second began after it) and none since `mark`
    /// started a delivery: the outbox had nothing due at the emulator's time then.
    func quiet(since mark: Int) -> Bool {
        started.withLock { polls in polls.count >= mark + 2 && polls[mark...].allSatisfy { $0 == 0 } }
    }
}

/// How the emulator waits: the injected failures `token_delay` and `keys_delay` answer after a delay.
///
/// Tests inject one that records the delay and returns at once, so a 60-second delay costs no wall time:
///
/// ```swift
/// let sleep = EmulatorSleep { duration in await recorder.record(duration) }
/// ```
public struct EmulatorSleep: Sendable {
    private let wait: @Sendable (Duration) async throws -> Void

    /// Creates a sleep from a closure that waits `duration` (or throws when cancelled).
    public init(_ wait: @escaping @Sendable (Duration) async throws -> Void) {
        self.wait = wait
    }

    /// Waits `duration`.
    public func callAsFunction(_ duration: Duration) async throws {
        try await wait(duration)
    }

    /// `Task.sleep`: real waiting, ended early by cancellation.
    public static let system = EmulatorSleep { try await Task.sleep(for: $0) }
}

import SQLKit
import Synchronization

/// One caller's transaction in a ``SQLiteStore`` group commit: its body, run inside the group's
/// transaction, and the way back to the caller, taken only once the group's fate is known.
struct GroupCommitMember: Sendable {
    /// Runs the caller's body and keeps its result until ``finish``.
    let run: @Sendable (any SQLDatabase) async throws -> Void
    /// Hands the caller its kept result (`nil`: the group committed) or `error`.
    let finish: @Sendable ((any Error)?) -> Void

    /// A member for `body`, answering `continuation` when finished.
    static func answering<Result: Sendable>(
        _ continuation: CheckedContinuation<Result, any Error>, body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) -> GroupCommitMember {
        let kept = KeptResult<Result>()
        return GroupCommitMember(
            run: { database in kept.set(try await body(database)) },
            finish: { error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result = kept.take() {
                    continuation.resume(returning: result)
                } else {
                    continuation.resume(throwing: GroupCommitLostResult())
                }
            })
    }
}

/// A member's result between its body's return and the group's commit.
private final class KeptResult<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func take() -> Value? { value.withLock { $0.take() } }
}

/// A member told that its group committed without its body having returned (a bug in the store).
struct GroupCommitLostResult: Error, CustomStringConvertible {
    var description: String { "a transaction's group committed without its result" }
}

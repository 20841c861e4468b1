import Synchronization

/// Values read from the emulator's store, kept in memory until this process changes them.
///
/// One emulator process owns its data directory (the signing key in ``SigningKeyRing`` is kept the same way), so a
/// stored value changes only when this process writes it, and the writer calls ``invalidate(_:)``
/// once its transaction has ended, whatever its outcome. A read that overlapped such a write (started
/// before the invalidation, finished after) is returned but not kept, so the cache never holds a value
/// a write replaced. Keys are configured names (apps, Apple IDs), so the cache stays as small as the
/// configuration.
final class StoredValueCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var values: [Key: Value] = [:]
        /// Counts invalidations, so a read that started before one is never kept.
        var generation = 0
    }

    private let state = Mutex(State())

    init() {}

    /// The kept value for `key`, or what `read` returns (kept unless a write intervened). It runs on the
    /// caller's executor, so `read` may use the caller's isolated state (an actor's, for instance).
    nonisolated(nonsending) func value(for key: Key, read: () async throws -> Value) async throws -> Value {
        let (kept, started) = state.withLock { ($0.values[key], $0.generation) }
        if let kept { return kept }
        let value = try await read()
        state.withLock { state in
            if state.generation == started { state.values[key] = value }
        }
        return value
    }

    /// Forgets every value: after a write of many (a fixture reset or seed).
    func invalidateAll() {
        state.withLock { state in
            state.values.removeAll()
            state.generation += 1
        }
    }

    /// Forgets `key`'s value: call it after every write of that value.
    func invalidate(_ key: Key) {
        state.withLock { state in
            state.values[key] = nil
            state.generation += 1
        }
    }
}

import Synchronization

/// What `juice bench signin --server-only` collects before it starts the clock (device credentials,
/// signed passkey assertions), one slot per sign-in, filled by concurrent workers.
final class CredentialSlots<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>

    /// `count` empty slots.
    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    /// Fills slot `index` (ignored when out of range).
    func store(_ value: Value, at index: Int) {
        slots.withLock { slots in
            guard slots.indices.contains(index) else { return }
            slots[index] = value
        }
    }

    /// The values of the filled slots, in slot order.
    func all() -> [Value] {
        slots.withLock { $0.compactMap { $0 } }
    }
}

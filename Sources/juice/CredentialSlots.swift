import Synchronization

/// The device credentials `juice bench signin --server-only` collects before it starts the clock,
/// one slot per sign-in, filled by concurrent workers.
final class CredentialSlots: Sendable {
    private let slots: Mutex<[BenchSignIn.DeviceCredential?]>

    /// `count` empty slots.
    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    /// Fills slot `index` (ignored when out of range).
    func store(_ credential: BenchSignIn.DeviceCredential, at index: Int) {
        slots.withLock { slots in
            guard slots.indices.contains(index) else { return }
            slots[index] = credential
        }
    }

    /// The credentials of the filled slots, in slot order.
    func all() -> [BenchSignIn.DeviceCredential] {
        slots.withLock { $0.compactMap { $0 } }
    }
}

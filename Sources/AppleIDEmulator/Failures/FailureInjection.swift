import Synchronization

/// The failures in force, added, listed and cleared by the fixture API (`/emulator/admin/failures`) and
/// forgotten by a reset. Apple's endpoints consult it where each kind applies: the token endpoint
/// (``TokenEndpointFailure``), the key endpoint (``KeyEndpointFailure``), discovery (``IssuerDrift``),
/// the identity tokens (`omit_email`), notification delivery (``DroppedNotification``) and new relay
/// addresses (`relay_domain`). Kept in memory: it is test state, and a restart forgets it as a reset does.
final class FailureInjection: Sendable {
    /// The most failures in force at once.
    static let maximumInForce = 100

    private struct State {
        var nextID = 1
        var failures: [InjectedFailure] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Adds a failure (already checked by ``FailureRequest``); `nil` when ``maximumInForce`` are in force.
    func add(
        kind: FailureKind, clientID: String?, count: Int?, delaySeconds: Double?, status: Int?, relayDomain: RelayDomain?
    ) -> InjectedFailure? {
        state.withLock { state in
            guard state.failures.count < Self.maximumInForce else { return nil }
            let failure = InjectedFailure(
                id: state.nextID, kind: kind, clientID: clientID, remaining: count, delaySeconds: delaySeconds, status: status,
                relayDomain: relayDomain)
            state.nextID += 1
            state.failures.append(failure)
            return failure
        }
    }

    /// The failures in force, oldest first.
    var list: [InjectedFailure] { state.withLock { $0.failures } }

    /// Clears the failure `id`, or every failure when `id` is `nil`; answers how many were cleared.
    @discardableResult
    func clear(id: Int? = nil) -> Int {
        state.withLock { state in
            let before = state.failures.count
            state.failures.removeAll { id == nil || $0.id == id }
            return before - state.failures.count
        }
    }

    /// Forgets every failure and restarts the ids (a reset).
    func reset() {
        state.withLock { $0 = State() }
    }

    /// The oldest failure of one of `kinds` that applies to `clientID`, counting one use of it (a
    /// failure whose count runs out is removed); `nil` when none applies.
    func take(_ kinds: Set<FailureKind>, clientID: String?) -> InjectedFailure? {
        state.withLock { state in
            guard let index = state.failures.firstIndex(where: { kinds.contains($0.kind) && $0.applies(to: clientID) }) else { return nil }
            let failure = state.failures[index]
            if let remaining = failure.remaining {
                if remaining <= 1 {
                    state.failures.remove(at: index)
                } else {
                    state.failures[index].remaining = remaining - 1
                }
            }
            return failure
        }
    }

    /// The relay domain new addresses for `clientID` are issued on, when a `relay_domain` failure
    /// applies (the newest; it lasts until cleared, so nothing is counted).
    func relayDomain(clientID: String) -> RelayDomain? {
        state.withLock { state in
            state.failures.last { $0.kind == .relayDomain && $0.applies(to: clientID) }?.relayDomain
        }
    }
}

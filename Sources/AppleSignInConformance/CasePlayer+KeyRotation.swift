import AppleIDEmulator

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `key-rotation`, judged fairly: refetching Apple's keys late (after a cooldown) is a weakness, not the
/// flaw of never refetching them.
///
/// Whether a cooldown shows depends on when the rotation falls after the backend's last key fetch, so the
/// kit rotates twice: the first rotation makes the backend fetch (the kit keeps signing in for up to
/// ``ConformanceOptions/keyRotationWindow``); the second comes ``ConformanceOptions/keyRefetchInterval``
/// after that fetch, so a backend that waits longer than that before refetching for an unknown `kid`
/// refuses the new key for as long as its cooldown lasts, and the kit measures how long.
extension CasePlayer {
    /// What signing in with a new key led to: accepted (and after how long), or the last refusal.
    struct RotationAttempt {
        let observation: Observation
        /// How long after the rotation the backend first accepted the new key; `nil`: never within the window.
        let acceptedAfter: Duration?
        let attempts: Int
        /// The backend fetched Apple's keys after the rotation and still refused.
        var fetchedNewKeys = false
    }

    /// - Parameter signIn: One sign-in on the case's flow (web or native), signed by Apple's newest key.
    func playKeyRotation(retrying: Bool, signIn: () async throws -> Observation) async throws -> Observation {
        let window = retrying ? options.keyRotationWindow : .zero
        let first = try await signInAfterRotation(window: window, signIn: signIn)
        guard first.acceptedAfter != nil else { return neverRefetched(first) }
        try await leaveKeyCacheAlone()
        let second = try await signInAfterRotation(window: window, signIn: signIn)
        guard let delay = second.acceptedAfter else { return neverRefetched(second) }
        // The first rotation only makes the backend fetch (it may fall within a refetch interval the backend rightly keeps);
        // the second, staged after that fetch, is the one judged.
        guard second.attempts > 1 else {
            return .accepted("a new key and kid signed in at once (Apple rotated \(options.keyRefetchInterval) after the backend's last key fetch)")
        }
        return .late(
            "the backend refused a new key and kid for \((delay.inSeconds * 10).rounded() / 10) s after Apple rotated (\(second.attempts) sign-ins in the "
                + "second rotation, within the \(window) the kit allows), then refetched Apple's keys: its key client waits out a cooldown "
                + "after a fetch before it refetches for an unknown kid, and every sign-in in that time is refused")
    }

    /// Rotates to a key the backend has never seen (twice: the emulator publishes the next key ahead of use),
    /// then signs in every 2 s until the backend accepts or the window passes.
    private func signInAfterRotation(window: Duration, signIn: () async throws -> Observation) async throws -> RotationAttempt {
        try await apple.engine.rotateKeys()
        try await apple.engine.rotateKeys()
        let rotated = ContinuousClock.now
        let mark = apple.lastRequestID()
        var attempts = 0
        while true {
            attempts += 1
            let observation = try await signIn()
            if observation.isAccepted {
                return RotationAttempt(observation: observation, acceptedAfter: ContinuousClock.now - rotated, attempts: attempts)
            }
            // Refused although it fetched the new keys: not a matter of keys; more sign-ins would not change that.
            let fetched = !apple.requests(to: "/auth/keys", after: mark).isEmpty
            if fetched || ContinuousClock.now - rotated >= window {
                return RotationAttempt(observation: observation, acceptedAfter: nil, attempts: attempts, fetchedNewKeys: fetched)
            }
            try await Task.sleep(for: .seconds(2))
        }
    }

    /// Waits until ``ConformanceOptions/keyRefetchInterval`` has passed since the backend's last key fetch.
    private func leaveKeyCacheAlone() async throws {
        guard let last = apple.requests(to: "/auth/keys").last?.receivedAt else { return }
        let interval = options.keyRefetchInterval.inSeconds
        let wait = last + interval - Date().timeIntervalSince1970
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int64(min(wait, interval) * 1000))) }
    }

    private func neverRefetched(_ attempt: RotationAttempt) -> Observation {
        if attempt.fetchedNewKeys { return attempt.observation.appending("; refused although it had fetched Apple's new keys") }
        guard case .refused = attempt.observation else { return attempt.observation }
        return attempt.observation.appending(
            "; signed with a new key and kid, refused \(attempt.attempts) time(s) in \(options.keyRotationWindow): the backend never "
                + "refetched Apple's keys")
    }

}

import AppleIDEmulator

/// The browser that started replays a state the backend consumed in an accepted sign-in (fresh code and token).
struct StateReplayed: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.state = .replayed
    }
}

import AppleIDEmulator

/// After a first sign-in with Apple's keys up, Apple's key endpoint holds its answer past the stall bound
/// (`keys_delay`) while a second, fresh sign-in is judged.
struct KeysSlow: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.warmUp = true
        plan.failures.append(AppleFailure(kind: .keysDelay))
    }
}

import AppleIDEmulator

/// After a first sign-in with Apple's keys up, Apple's key endpoint answers 503 (`keys_server_error`)
/// while a second, fresh sign-in is judged.
struct KeysUnavailable: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.warmUp = true
        plan.failures.append(AppleFailure(kind: .keysServerError, status: 503))
    }
}

import AppleIDEmulator

/// Apple's token endpoint holds its answer past the stall bound (`token_delay`; the kit sets the delay
/// from `--apple-stall-bound`).
struct AppleSlow: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.failures.append(AppleFailure(kind: .tokenDelay, perClient: true))
    }
}

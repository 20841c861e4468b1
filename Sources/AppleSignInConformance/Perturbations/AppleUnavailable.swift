import AppleIDEmulator

/// Apple's token endpoint is down: 503 `server_error` (`token_server_error`).
struct AppleUnavailable: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.failures.append(AppleFailure(kind: .tokenServerError, perClient: true, status: 503))
    }
}

import AppleIDEmulator

/// Apple's token endpoint answers 401 `invalid_client` although the client secret is good (`token_invalid_client`):
/// a revoked key, or Apple's own fault.
struct AppleRefusesClient: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.failures.append(AppleFailure(kind: .tokenInvalidClient, perClient: true))
    }
}

import AppleIDEmulator

/// Apple's token endpoint answers `invalid_grant` for the code (`token_invalid_grant`).
struct AppleRefusesCode: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.failures.append(AppleFailure(kind: .tokenInvalidGrant, perClient: true))
    }
}

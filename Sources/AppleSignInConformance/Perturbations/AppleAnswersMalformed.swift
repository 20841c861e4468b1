import AppleIDEmulator

/// Apple's token endpoint answers 200 with a body that is not JSON, cut off mid-object (`token_malformed_json`).
struct AppleAnswersMalformed: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.failures.append(AppleFailure(kind: .tokenMalformedJSON, perClient: true))
    }
}

import AppleIDEmulator

/// The form_post carries a state the backend never issued.
struct StateNeverIssued: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.state = .neverIssued
    }
}

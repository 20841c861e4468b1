import AppleIDEmulator

/// Apple rotates its signing key to one the backend has never seen; the sign-in uses it.
struct KeyRotation: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.rotatesKeys = true
    }
}

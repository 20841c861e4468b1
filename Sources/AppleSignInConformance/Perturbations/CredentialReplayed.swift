import AppleIDEmulator

/// The same native credential (identity token, code, nonce) is posted twice; the second is judged.
struct CredentialReplayed: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.replayed = true
    }
}

import AppleIDEmulator

/// A fresh Apple ID whose form_post `user` field (unsigned) names another email than its token.
struct UserFieldNamesOtherEmail: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.person = .userFieldNamesOtherEmail
    }
}

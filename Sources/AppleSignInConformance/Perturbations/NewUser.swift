import AppleIDEmulator

/// The Apple ID's first sign-in to the app: Apple sends `user` (name and email) this once.
struct NewUser: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.person = .newUser
    }
}

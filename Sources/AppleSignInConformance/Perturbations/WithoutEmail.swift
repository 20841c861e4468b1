import AppleIDEmulator

/// A fresh Apple ID whose tokens carry no email (a Work & School account whose organization shares none):
/// the emulator's `omit_email`.
struct WithoutEmail: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.person = .freshUser
        plan.failures.append(AppleFailure(kind: .omitEmail, perClient: true))
    }
}

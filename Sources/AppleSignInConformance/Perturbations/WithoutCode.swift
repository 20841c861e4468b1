import AppleIDEmulator

/// The native body carries the identity token and no authorization code (`--native-body rest-auth`: an
/// `access_token` of the kit's invention instead).
struct WithoutCode: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.withoutCode = true
    }
}

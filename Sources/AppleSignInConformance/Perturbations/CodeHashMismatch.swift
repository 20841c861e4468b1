import AppleIDEmulator
import JuiceEncodings

/// A form_post token whose `c_hash` is not its code's (the token endpoint's carries none).
struct CodeHashMismatch: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.needsFormPostCheck = true
        plan.forge(.delivered) { $0["c_hash"] = .string(String(RandomText.token().prefix(22))) }
    }
}

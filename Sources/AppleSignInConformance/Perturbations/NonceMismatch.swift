import AppleIDEmulator
import JuiceEncodings

/// Tokens carrying a nonce other than the one the backend sent.
struct NonceMismatch: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.needsNonce = true
        plan.forge(.both) { $0["nonce"] = .string(RandomText.token()) }
    }
}

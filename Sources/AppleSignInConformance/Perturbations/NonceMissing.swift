import AppleIDEmulator
import JuiceEncodings

/// Tokens without a nonce, `nonce_supported` false, although the backend sent one.
struct NonceMissing: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.needsNonce = true
        plan.forge(.both) { claims in
            claims["nonce"] = nil
            claims["nonce_supported"] = .bool(false)
        }
    }
}

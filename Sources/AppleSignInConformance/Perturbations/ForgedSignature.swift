import AppleIDEmulator

/// Tokens Apple never signs: a signature that does not verify, `alg: none`, HS256 keyed with Apple's
/// public key, or a key Apple never published.
struct ForgedSignature: Perturbation {
    let signature: TokenForgery.Signature
    var tokens = SignInPlan.Tokens.both

    func apply(to plan: inout SignInPlan) {
        plan.forge(tokens, signature: signature)
        plan.forgeNotification(signature: signature)
    }
}

import AppleIDEmulator

/// Apple's discovery document names `https://account.apple.com` while the tokens keep their issuer
/// (`issuer_drift`, June 2025).
struct DiscoveryIssuerDrift: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.failures.append(AppleFailure(kind: .issuerDrift))
    }
}

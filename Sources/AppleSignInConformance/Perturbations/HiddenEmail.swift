import AppleIDEmulator

/// A fresh Apple ID that hides its email: Apple issues its relay address on `domain` (the emulator's
/// `relay_domain` failure picks the domain).
struct HiddenEmail: Perturbation {
    let domain: RelayDomain

    func apply(to plan: inout SignInPlan) {
        plan.person = .hiddenEmail(domain)
        plan.failures.append(AppleFailure(kind: .relayDomain, perClient: true, relayDomain: domain))
    }
}

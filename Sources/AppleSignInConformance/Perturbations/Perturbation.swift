import AppleIDEmulator

/// One thing a case changes in an otherwise correct sign-in or notification, as Apple (the emulator's
/// engine) stages it: a failure of Apple's, a token Apple would never mint, another person, a replayed
/// state. A case is a flow, a list of perturbations and the expected outcome.
///
/// Each perturbation is a small named type in a file of its own, as `TokenPolicy`'s rules are.
protocol Perturbation: Sendable {
    /// Changes `plan`, the sign-in (or notification) the case plays.
    func apply(to plan: inout SignInPlan)
}

extension SignInPlan {
    /// The plan of a case: the correct sign-in, changed by each perturbation in turn.
    init(_ perturbations: [any Perturbation]) {
        self.init()
        for perturbation in perturbations { perturbation.apply(to: &self) }
    }
}

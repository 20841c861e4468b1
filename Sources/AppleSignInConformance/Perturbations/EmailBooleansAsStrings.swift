import AppleIDEmulator
import JuiceEncodings

/// `email_verified` and `is_private_email` as the strings `"true"`/`"false"`, as Apple's tokens often
/// carry them (the kit's other sign-ins carry JSON booleans: Apple sends either).
struct EmailBooleansAsStrings: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.delivered?.alter = { _ in }
        plan.tokenEndpoint?.alter = { _ in }
    }

    /// The email booleans as JSON booleans.
    static let jsonBooleans: @Sendable (inout [String: JSONValue]) -> Void = { claims in
        for name in ["email_verified", "is_private_email"] {
            if case .string(let text) = claims[name] { claims[name] = .bool(text == "true") }
        }
    }
}

import AppleIDEmulator
import JuiceEncodings

/// Tokens whose `iss` is a look-alike of Apple's issuer.
struct WrongIssuer: Perturbation {
    /// An issuer that is not Apple's: a look-alike host.
    static let foreignIssuer = "https://appleid.apple.com.example.net"

    func apply(to plan: inout SignInPlan) {
        plan.forge(.both) { $0["iss"] = .string(Self.foreignIssuer) }
    }
}

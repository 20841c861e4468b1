import AppleIDEmulator
import JuiceEncodings

/// Tokens whose `iat` is `seconds` ahead of now (Apple's clock fast, or a forged token).
struct IssuedAhead: Perturbation {
    let seconds: Int64

    func apply(to plan: inout SignInPlan) {
        let seconds = seconds
        plan.forge(.both) { claims in
            guard case .integer(let issuedAt) = claims["iat"], case .integer(let expiry) = claims["exp"] else { return }
            claims["iat"] = .integer(issuedAt + seconds)
            claims["exp"] = .integer(max(expiry, issuedAt + seconds + 600))
        }
    }
}

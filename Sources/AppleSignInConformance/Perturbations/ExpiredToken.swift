import AppleIDEmulator
import JuiceEncodings

/// Tokens whose `exp` passed an hour ago (issued two hours ago).
struct ExpiredToken: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.forge(.both) { claims in
            guard case .integer(let issuedAt) = claims["iat"] else { return }
            claims["iat"] = .integer(issuedAt - 7_200)
            claims["auth_time"] = .integer(issuedAt - 7_200)
            claims["exp"] = .integer(issuedAt - 3_600)
        }
    }
}

import AppleIDEmulator
import JuiceEncodings

/// Tokens (and notifications) for another client id than the backend's.
struct WrongAudience: Perturbation {
    /// Another app (`aud` + `.other`), or a third client id of the same team (`BUNDLE.watchkitapp`).
    enum Audience: Sendable {
        case otherApp
        case sameTeam
    }

    var audience = Audience.otherApp

    func apply(to plan: inout SignInPlan) {
        let suffix = audience == .otherApp ? ".other" : ".watchkitapp"
        let change: @Sendable (inout [String: JSONValue]) -> Void = { claims in
            if case .string(let aud) = claims["aud"] { claims["aud"] = .string(aud + suffix) }
        }
        plan.forge(.both, alter: change)
        plan.forgeNotification(alter: change)
        if audience == .sameTeam { plan.person = .freshUser }
    }
}

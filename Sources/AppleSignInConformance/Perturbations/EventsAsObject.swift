import AppleIDEmulator
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A notification whose `events` claim is a JSON object, not the JSON string Apple sends.
struct EventsAsObject: Perturbation {
    func apply(to plan: inout SignInPlan) {
        plan.forgeNotification { claims in
            guard case .string(let text) = claims["events"],
                let object = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            else { return }
            claims["events"] = object
        }
    }
}

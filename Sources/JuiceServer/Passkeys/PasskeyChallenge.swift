import Foundation

/// A challenge the server issued for one passkey ceremony: single use, expiring, stored in the
/// database so that any instance can finish a ceremony another began.
struct PasskeyChallenge: Sendable, Equatable {
    /// Which ceremony it is for; a challenge of one is never accepted by the other.
    enum Purpose: String, Sendable {
        case registration
        case authentication
        /// An automatic upgrade: a registration asked for with `mediation: "conditional"` right after
        /// a password sign-in, finished only by that session.
        case conditionalRegistration = "conditional-registration"
    }

    /// The random bytes the authenticator signs over (32).
    var challenge: [UInt8]
    var purpose: Purpose
    /// The signed-in account a registration is for (nil for an authentication).
    var accountID: String?
    /// The session a conditional registration was issued to (nil otherwise).
    var sessionID: String? = nil
    var createdAt: Date
    var expiresAt: Date
}

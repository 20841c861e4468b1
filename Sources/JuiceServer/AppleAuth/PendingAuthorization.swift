import Foundation

/// A Sign in with Apple request waiting for Apple's answer, kept server-side under its single-use
/// `state` so the cross-site callback needs no cookie (the same-site finish then checks the browser
/// the state is bound to: ``FlowBinding``).
struct PendingAuthorization: Sendable, Hashable {
    /// What the sign-in is for, with what only that kind of sign-in needs.
    enum Purpose: Sendable, Hashable {
        /// A browser sign-in that ends on `/account`: the identity token must carry `nonce`; the
        /// Apple ID is linked to `linkAccountID` (the account signed in when it started), and
        /// `replacesSessionID` ends once the new session starts.
        case web(nonce: String, linkAccountID: String?, replacesSessionID: String?)
        /// A native client's sign-in through the loopback bridge: Apple's answer goes to its loopback URI with
        /// its own `state`; the client posts it to `/api/auth/apple`, which checks the nonce.
        case loopbackBridge(bridgeRedirectURI: String, bridgeState: String)
    }

    /// The `state` sent to Apple (random, single use).
    let state: String
    /// What the sign-in is for.
    let purpose: Purpose
    /// When the request was made.
    let createdAt: Date
    /// After this, the state is refused.
    let expiresAt: Date
}

import Foundation

/// A Sign in with Apple request waiting for Apple's answer: its single-use `state` and `nonce`, kept
/// server-side so the callback needs no cookie.
public struct PendingAuthorization: Sendable, Hashable {
    /// What the sign-in is for.
    public struct Purpose: Sendable, Hashable, RawRepresentable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A browser sign-in that ends on `/account`.
        public static let web = Purpose(rawValue: "web")
        /// A native client's sign-in through the relay: Apple's answer goes to its loopback URI.
        public static let native = Purpose(rawValue: "native")
    }

    /// The `state` sent to Apple (random, single use).
    public let state: String
    /// The `nonce` sent to Apple, expected in the identity token.
    public let nonce: String
    /// What the sign-in is for.
    public let purpose: Purpose
    /// The account signed in when the request started (the Apple ID is linked to it).
    public let linkAccountID: String?
    /// The session to end once the new one starts.
    public let replacesSessionID: String?
    /// When the request was made.
    public let createdAt: Date
    /// After this, the state is refused.
    public let expiresAt: Date
    /// For ``Purpose/native``: the client's loopback URI that receives Apple's answer.
    public let relayRedirectURI: String?
    /// For ``Purpose/native``: the client's own `state`, handed back with Apple's answer.
    public let relayState: String?

    public init(
        state: String, nonce: String, purpose: Purpose, linkAccountID: String?, replacesSessionID: String?, createdAt: Date, expiresAt: Date,
        relayRedirectURI: String? = nil, relayState: String? = nil
    ) {
        self.state = state
        self.nonce = nonce
        self.purpose = purpose
        self.linkAccountID = linkAccountID
        self.replacesSessionID = replacesSessionID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.relayRedirectURI = relayRedirectURI
        self.relayState = relayState
    }
}

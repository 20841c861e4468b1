import AppleIDEmulator
import JuiceEncodings

/// What a case plays: who signs in, which tokens are forged and how, which of Apple's failures are in
/// force, and what the browser or app sends. The default is a correct sign-in by a returning user.
struct SignInPlan: Sendable {
    /// Who signs in.
    enum Person: Sendable, Hashable {
        /// The run's main Apple ID (web) or app Apple ID (native), its first sign-in: Apple sends `user`.
        case newUser
        /// The same Apple ID again: no `user`.
        case returningUser
        /// A fresh Apple ID that shares its email.
        case freshUser
        /// A fresh Apple ID that hides its email: a relay address on `domain`.
        case hiddenEmail(RelayDomain)
        /// A fresh Apple ID whose form_post `user` field names another email than its token.
        case userFieldNamesOtherEmail
    }

    /// Which `state` the form_post carries.
    enum State: Sendable, Hashable {
        case issued
        case neverIssued
        /// A state the backend already consumed in an accepted sign-in, with a fresh code and token.
        case replayed
    }

    /// Which identity tokens a forgery applies to.
    enum Tokens: Sendable, Hashable {
        /// The token delivered with the code (the form_post's, or the one the app posts).
        case delivered
        /// The token Apple's token endpoint returns when the code is redeemed.
        case tokenEndpoint
        case both
    }

    var person = Person.returningUser
    /// How the delivered token is forged (`nil`: as Apple minted it). By default its email booleans are JSON booleans.
    var delivered: TokenForgery? = TokenForgery(alter: EmailBooleansAsStrings.jsonBooleans)
    /// How the token endpoint's tokens are forged while the case plays (`nil`: as Apple mints them).
    var tokenEndpoint: TokenForgery? = TokenForgery(alter: EmailBooleansAsStrings.jsonBooleans)
    /// How a notification is forged (`nil`: as Apple signs it).
    var notification: TokenForgery?
    /// The notification's event type.
    var notificationType = "email-enabled"
    /// Apple's failures in force while the judged sign-in plays, in the emulator's vocabulary.
    var failures: [AppleFailure] = []
    var state = State.issued
    /// The native body carries no authorization code.
    var withoutCode = false
    /// The same native credential is posted twice; the second is judged.
    var replayed = false
    /// A sign-in with Apple as usual comes first; the failures apply to the second, judged one.
    var warmUp = false
    /// Apple rotates its signing key to one the backend has never seen before the sign-in.
    var rotatesKeys = false
    /// The case compares the token's nonce with the backend's: it does not apply when the backend sends none.
    var needsNonce = false
    /// The case damages only what the form_post token alone carries (`c_hash`): it does not apply to a
    /// backend that does not check the form_post token.
    var needsFormPostCheck = false

    /// Forges `tokens`: signed as `signature` (when given), their claims changed by `alter` after any earlier change.
    mutating func forge(
        _ tokens: Tokens, signature: TokenForgery.Signature? = nil, alter: (@Sendable (inout [String: JSONValue]) -> Void)? = nil
    ) {
        if tokens != .tokenEndpoint { delivered = Self.composed(delivered, signature: signature, alter: alter) }
        if tokens != .delivered { tokenEndpoint = Self.composed(tokenEndpoint, signature: signature, alter: alter) }
    }

    /// Forges the notification: signed as `signature` (when given), its claims changed by `alter`.
    mutating func forgeNotification(
        signature: TokenForgery.Signature? = nil, alter: (@Sendable (inout [String: JSONValue]) -> Void)? = nil
    ) {
        notification = Self.composed(notification, signature: signature, alter: alter)
    }

    /// Apple's token endpoint fails (down, slow, refusing the client, answering garbage): a backend that reports it as a
    /// gateway error (502, 503, 504) refuses cleanly.
    var appleFails: Bool {
        failures.contains { [.tokenServerError, .tokenDelay, .tokenInvalidClient, .tokenMalformedJSON].contains($0.kind) }
    }

    /// Apple holds an answer (token endpoint or keys) past the stall bound: the judged requests are timed against it.
    var stalls: Bool { has(.tokenDelay) || has(.keysDelay) }

    /// Whether a failure of `kind` is in the plan.
    func has(_ kind: FailureKind) -> Bool {
        failures.contains { $0.kind == kind }
    }

    private static func composed(
        _ forgery: TokenForgery?, signature: TokenForgery.Signature?, alter: (@Sendable (inout [String: JSONValue]) -> Void)?
    ) -> TokenForgery {
        var forgery = forgery ?? TokenForgery()
        if let signature { forgery.signature = signature }
        if let alter {
            let earlier = forgery.alter
            forgery.alter = { claims in
                earlier(&claims)
                alter(&claims)
            }
        }
        return forgery
    }
}

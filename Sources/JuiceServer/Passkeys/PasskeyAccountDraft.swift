import Foundation
import WebAuthn

/// A passkey-first account about to be created (``PasskeySignUpTransaction/run(_:session:)``).
struct PasskeyAccountDraft: Sendable, Equatable {
    /// The verified passkey, its ``PasskeyCredential/accountID`` the new account's id and its user
    /// handle the one the options gave.
    var credential: PasskeyCredential
    /// The normalized username, or `nil` for an account without one.
    var username: String?
    /// The sign-up challenge's key in `spent_values` (``PasskeySignUpChallenges/spentValueID(challenge:)``).
    var spentValueID: String
    /// When the account is created.
    var at: Date
}

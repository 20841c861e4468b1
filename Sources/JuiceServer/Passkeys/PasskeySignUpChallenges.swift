import Crypto
import Foundation
import JuiceEncodings

/// The challenges of a passkey sign-up (an account begun with a passkey alone). Like the sign-in's,
/// they are ``MintedValues`` values, not rows: the options need no session, so they must not let
/// anyone fill a table. Each is bound to what its options promised — the user handle given to the
/// authenticator and the pending username (or none, for a generated one) — so a finish naming
/// another username or handle is refused as forged. Spending one (``spentValueID(challenge:)``) makes it
/// single use.
struct PasskeySignUpChallenges: Sendable {
    /// The longest user handle WebAuthn allows (`user.id`, §5.4.3), in bytes.
    static let maximumUserHandleLength = 64

    let values: MintedValues

    /// How long a challenge may wait for its answer.
    var lifetime: TimeInterval { values.lifetime }

    /// A challenge for a sign-up promising `userHandle` (1 to 64 bytes) and `username` (normalized;
    /// `nil` for a generated one); `nil` when the handle is out of bounds.
    func mint(userHandle: [UInt8], username: String?) -> [UInt8]? {
        guard let context = Self.context(userHandle: userHandle, username: username) else { return nil }
        return values.mint(boundTo: context)
    }

    /// Whether `challenge` was minted here for this handle and username and is still in its time; a
    /// handle out of bounds is `.forged`.
    func check(_ challenge: [UInt8], userHandle: [UInt8], username: String?) -> MintedValues.Check {
        guard let context = Self.context(userHandle: userHandle, username: username) else { return .forged }
        return values.check(challenge, boundTo: context)
    }

    /// What `spent_values` keeps of a spent sign-up challenge: its SHA-256, marked so that it never
    /// equals a sign-in challenge's, a code's or a nonce's key.
    static func spentValueID(challenge: [UInt8]) -> String {
        "passkey-signup:" + SHA256.hash(data: challenge).hexString
    }

    /// The bound context, unambiguous: the handle's length (one byte) and the handle, then 0 for no
    /// username or 1 and the username's UTF-8.
    static func context(userHandle: [UInt8], username: String?) -> [UInt8]? {
        guard (1...maximumUserHandleLength).contains(userHandle.count) else { return nil }
        var context = [UInt8(userHandle.count)] + userHandle
        if let username {
            context.append(1)
            context.append(contentsOf: Array(username.utf8))
        } else {
            context.append(0)
        }
        return context
    }
}

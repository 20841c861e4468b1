import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings

/// The nonces of native sign-in, issued without a database write.
///
/// A nonce is a ``MintedValues`` value for the purpose `juice native nonce v1`, base64url (75
/// characters): 16 random bytes, its expiry and an HMAC-SHA256 tag over both. Only a server holding the secret can mint one, and its expiry cannot be moved. It is
/// single use because signing in spends it: its ``spentValueID(nonceHash:)`` goes into `spent_values` in the same
/// statement as the authorization code (``AuthorizationStore/spend(_:at:)``), kept until well after
/// the nonce would have expired anyway.
///
/// Issuing used to store each nonce. Now only a sign-in that got past the token's verification writes
/// anything, so `POST /api/auth/nonce`, which needs no session, can no longer fill a table.
struct NativeNonces: Sendable {
    private let values: MintedValues

    /// Creates the issuer.
    /// - Parameters:
    ///   - secret: The server's secret key (the refresh-token key); the nonce key is derived from it
    ///     for this one purpose, so every instance sharing the secret accepts the others' nonces.
    ///   - lifetime: How long a nonce is accepted.
    init(secret: SymmetricKey, lifetime: TimeInterval, random: ServerRandom, time: TimeSource) {
        values = MintedValues(secret: secret, purpose: "juice native nonce v1", lifetime: lifetime, random: random, time: time)
    }

    /// A new nonce, accepted for its lifetime.
    func issue() -> String {
        Base64URL.encode(values.mint())
    }

    /// Whether `rawNonce` is one this server (or one sharing its secret) issued and it has not expired.
    /// Whether it was spent already is the database's to say.
    func isValid(rawNonce: String) -> Bool {
        guard rawNonce.utf8.count <= 128, let bytes = Base64URL.decode(rawNonce) else { return false }
        return values.check(bytes) == .valid
    }

    /// What `spent_values` keeps of a spent nonce, from its SHA-256 hex (which the token's check needs
    /// anyway): the hash, marked so that it can never equal a code's key.
    static func spentValueID(nonceHash: String) -> String {
        "nonce:" + nonceHash
    }
}

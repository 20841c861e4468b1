import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings

/// The nonces of native sign-in, issued without a database write.
///
/// A nonce is 16 random bytes, its expiry (seconds since 1970, 8 bytes big-endian) and an
/// HMAC-SHA256 tag over both under a key derived from the server's secret, base64url (75
/// characters). Only a server holding the secret can mint one, and its expiry cannot be moved. It is
/// single use because signing in spends it: its ``spentKey(nonceHash:)`` goes into `spent_values` in the same
/// statement as the authorization code (``AuthorizationStore/spend(_:at:)``), kept until well after
/// the nonce would have expired anyway.
///
/// Issuing used to store each nonce. Now only a sign-in that got past the token's verification writes
/// anything, so `POST /api/auth/nonce`, which needs no session, can no longer fill a table.
struct NativeNonces: Sendable {
    private static let randomCount = 16
    private static let expiryCount = 8
    private static let tagCount = SHA256.byteCount
    private static let byteCount = randomCount + expiryCount + tagCount

    private let key: SymmetricKey
    private let lifetime: TimeInterval
    private let random: ServerRandom
    private let time: TimeSource

    /// Creates the issuer.
    /// - Parameters:
    ///   - secret: The server's secret key (the refresh-token key); the nonce key is derived from it
    ///     for this one purpose, so every instance sharing the secret accepts the others' nonces.
    ///   - lifetime: How long a nonce is accepted.
    init(secret: SymmetricKey, lifetime: TimeInterval, random: ServerRandom, time: TimeSource) {
        self.key = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("juice native nonce v1".utf8), outputByteCount: 32)
        self.lifetime = lifetime
        self.random = random
        self.time = time
    }

    /// A new nonce, accepted for ``lifetime`` seconds.
    func issue() -> String {
        var bytes = random.bytes(Self.randomCount)
        let expiry = UInt64(max(0, (time.now.timeIntervalSince1970 + lifetime).rounded(.down)))
        withUnsafeBytes(of: expiry.bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: HMAC<SHA256>.authenticationCode(for: bytes, using: key))
        return Base64URL.encode(bytes)
    }

    /// Whether `rawNonce` is one this server (or one sharing its secret) issued and it has not expired.
    /// Whether it was spent already is the database's to say.
    func isValid(rawNonce: String) -> Bool {
        guard rawNonce.utf8.count <= 128, let bytes = Base64URL.decode(rawNonce), bytes.count == Self.byteCount else { return false }
        let signed = bytes[..<(Self.randomCount + Self.expiryCount)]
        guard HMAC<SHA256>.isValidAuthenticationCode(bytes[signed.endIndex...], authenticating: signed, using: key) else { return false }
        let expiry = signed[Self.randomCount...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let now = time.now.timeIntervalSince1970
        // A tag made with this key is trusted, but an expiry past what this server issues is refused all
        // the same (a nonce minted while the lifetime was longer, or with a clock far ahead).
        return TimeInterval(expiry) > now && TimeInterval(expiry) <= now + lifetime + 60
    }

    /// What `spent_values` keeps of a spent nonce, from its SHA-256 hex (which the token's check needs
    /// anyway): the hash, marked so that it can never equal a code's key.
    static func spentKey(nonceHash: String) -> String {
        "nonce:" + nonceHash
    }
}

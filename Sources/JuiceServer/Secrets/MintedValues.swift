import AppleSignIn
import Crypto
import Foundation

/// Single-use values this server mints without a database write: 16 random bytes, the expiry
/// (seconds since 1970, 8 bytes big-endian) and an HMAC-SHA256 tag over both under a key derived
/// from the server's secret for one purpose (56 bytes).
///
/// Only a server holding the secret can mint one for that purpose, its expiry cannot be moved, and
/// every instance sharing the secret accepts the others'. They are single use because using one
/// spends it: its key goes into `spent_values` (``AuthorizationStore/spend(_:at:)``), kept until well
/// after it would have expired anyway. So an endpoint that needs no session can hand them out
/// without filling a table. ``NativeNonces`` and the passkey sign-in challenge are minted here.
///
/// A value may be *bound* to context it does not carry (``mint(boundTo:)``, ``check(_:boundTo:)``):
/// the tag then covers that context too, so the value is accepted only with the same context (for
/// example a passkey sign-up challenge bound to the username and user handle it was issued for). The
/// caller encodes the context unambiguously (fixed-length parts first, or length-prefixed); the empty
/// context is the unbound value, so values minted before binding existed stay valid.
struct MintedValues: Sendable {
    /// What ``check(_:)`` finds.
    enum Check: Sendable, Equatable {
        /// Minted here for this purpose, and not expired.
        case valid
        /// Not minted by a server with this secret for this purpose, or altered.
        case forged
        /// Minted here, and its time is over (or its expiry is past anything this server issues).
        case expired
    }

    static let randomCount = 16
    static let expiryCount = 8
    static let byteCount = randomCount + expiryCount + SHA256.byteCount

    private let key: SymmetricKey
    let lifetime: TimeInterval
    private let random: ServerRandom
    private let time: TimeSource

    /// - Parameters:
    ///   - secret: The server's secret; the key is derived from it for `purpose` alone.
    ///   - purpose: The HKDF info naming what the values are for, e.g. `juice native nonce v1`.
    ///   - lifetime: How long a value is accepted.
    init(secret: SymmetricKey, purpose: String, lifetime: TimeInterval, random: ServerRandom, time: TimeSource) {
        key = secret.derived(for: purpose)
        self.lifetime = lifetime
        self.random = random
        self.time = time
    }

    /// A new value, accepted for ``lifetime`` seconds, and only with `context` (empty: unbound).
    func mint(boundTo context: [UInt8] = []) -> [UInt8] {
        var bytes = random.bytes(Self.randomCount)
        let expiry = UInt64(max(0, (time.now.timeIntervalSince1970 + lifetime).rounded(.down)))
        withUnsafeBytes(of: expiry.bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: HMAC<SHA256>.authenticationCode(for: bytes + context, using: key))
        return bytes
    }

    /// Whether `bytes` is a value minted here for this purpose, with this `context` (empty: unbound),
    /// and still in its time. Whether it was spent already is the database's to say.
    func check(_ bytes: [UInt8], boundTo context: [UInt8] = []) -> Check {
        guard bytes.count == Self.byteCount else { return .forged }
        let signed = Array(bytes[..<(Self.randomCount + Self.expiryCount)])
        guard HMAC<SHA256>.isValidAuthenticationCode(bytes[signed.endIndex...], authenticating: signed + context, using: key) else {
            return .forged
        }
        let expiry = signed[Self.randomCount...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let now = time.now.timeIntervalSince1970
        // A tag made with this key is trusted, but an expiry past what this server issues is refused all
        // the same (a value minted while the lifetime was longer, or with a clock far ahead).
        return TimeInterval(expiry) > now && TimeInterval(expiry) <= now + lifetime + 60 ? .valid : .expired
    }
}

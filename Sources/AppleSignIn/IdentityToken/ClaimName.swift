/// The member names the toolkit reads from the JWTs Apple signs (header and payload).
///
/// The parser recognizes these once, as it reads each member's name, so every later lookup and the
/// duplicate-name check compare one byte instead of a string: a token's claims are read about
/// thirty times per verification.
enum ClaimName: UInt8, Sendable, Hashable, CaseIterable {
    case alg, kid, crit
    case iss, aud, exp, iat, nbf, sub, jti
    case nonce, email, cHash, events, authTime, transferSub
    case emailVerified, nonceSupported, isPrivateEmail, realUserStatus

    /// The name as it is spelled in JSON.
    var spelling: StaticString {
        switch self {
        case .alg: "alg"
        case .kid: "kid"
        case .crit: "crit"
        case .iss: "iss"
        case .aud: "aud"
        case .exp: "exp"
        case .iat: "iat"
        case .nbf: "nbf"
        case .sub: "sub"
        case .jti: "jti"
        case .nonce: "nonce"
        case .email: "email"
        case .cHash: "c_hash"
        case .events: "events"
        case .authTime: "auth_time"
        case .transferSub: "transfer_sub"
        case .emailVerified: "email_verified"
        case .nonceSupported: "nonce_supported"
        case .isPrivateEmail: "is_private_email"
        case .realUserStatus: "real_user_status"
        }
    }

    /// The name as a string (not on the hot path: lookups go by the enum).
    var name: String { spelling.description }

    /// This name's bit in a set of names (there are fewer than 32).
    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The known name spelled exactly by `bytes` (the decoded member name), if any.
    ///
    /// Length, first and last byte single out at most one candidate, which is then compared in full.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let first = bytes.first, let last = bytes.last else { return nil }
        let candidate: ClaimName
        switch (bytes.count, first, last) {
        case (3, UInt8(ascii: "a"), UInt8(ascii: "g")): candidate = .alg
        case (3, UInt8(ascii: "k"), UInt8(ascii: "d")): candidate = .kid
        case (4, UInt8(ascii: "c"), UInt8(ascii: "t")): candidate = .crit
        case (3, UInt8(ascii: "i"), UInt8(ascii: "s")): candidate = .iss
        case (3, UInt8(ascii: "a"), UInt8(ascii: "d")): candidate = .aud
        case (3, UInt8(ascii: "e"), UInt8(ascii: "p")): candidate = .exp
        case (3, UInt8(ascii: "i"), UInt8(ascii: "t")): candidate = .iat
        case (3, UInt8(ascii: "n"), UInt8(ascii: "f")): candidate = .nbf
        case (3, UInt8(ascii: "s"), UInt8(ascii: "b")): candidate = .sub
        case (3, UInt8(ascii: "j"), UInt8(ascii: "i")): candidate = .jti
        case (5, UInt8(ascii: "n"), UInt8(ascii: "e")): candidate = .nonce
        case (5, UInt8(ascii: "e"), UInt8(ascii: "l")): candidate = .email
        case (6, UInt8(ascii: "c"), UInt8(ascii: "h")): candidate = .cHash
        case (6, UInt8(ascii: "e"), UInt8(ascii: "s")): candidate = .events
        case (9, UInt8(ascii: "a"), UInt8(ascii: "e")): candidate = .authTime
        case (12, UInt8(ascii: "t"), UInt8(ascii: "b")): candidate = .transferSub
        case (14, UInt8(ascii: "e"), UInt8(ascii: "d")): candidate = .emailVerified
        case (15, UInt8(ascii: "n"), UInt8(ascii: "d")): candidate = .nonceSupported
        case (16, UInt8(ascii: "i"), UInt8(ascii: "l")): candidate = .isPrivateEmail
        case (16, UInt8(ascii: "r"), UInt8(ascii: "s")): candidate = .realUserStatus
        default: return nil
        }
        guard candidate.isSpelled(by: bytes) else { return nil }
        self = candidate
    }

    /// The known name equal to `name` byte for byte, if any.
    init?(_ name: String) {
        var name = name
        guard let claim = name.withUTF8({ ClaimName(utf8: $0) }) else { return nil }
        self = claim
    }

    private func isSpelled(by bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let spelling = self.spelling
        guard spelling.utf8CodeUnitCount == bytes.count else { return false }
        // At most 16 bytes: a loop beats a call to memcmp.
        var difference: UInt8 = 0
        for index in 0..<bytes.count { difference |= spelling.utf8Start[index] ^ bytes[index] }
        return difference == 0
    }
}

import AppleIDEmulator
import Crypto
import CryptoExtras
import Foundation
import JuiceEncodings

/// Mints identity tokens and notifications with the emulator's signer, damaged as a case asks.
struct TokenMint: Sendable {
    /// An identity token's content before signing.
    struct IdentityContent: Sendable {
        var subject: String
        var audience: String
        var nonce: String?
        /// The form_post token's code: its `c_hash`.
        var code: String?
        /// The token endpoint's access token: its `at_hash`.
        var accessToken: String?
        var email: String?
        var isPrivateEmail = false
        var booleans = Scenario.Booleans.json
        /// `real_user_status` (native sign-ins: 2, likely real).
        var realUserStatus: Int64?
    }

    let issuer: String
    let now: Date

    /// The signed identity token.
    func identityToken(_ content: IdentityContent, defect: Scenario.Defect, keys: KitKeys) throws -> String {
        let time = Int64(now.timeIntervalSince1970)
        var claims: [String: ClaimValue] = [
            "iss": .string(defect == .wrongIssuer ? Self.foreignIssuer : issuer),
            "aud": .string(defect == .wrongAudience ? content.audience + ".other" : content.audience),
            "sub": .string(content.subject),
            "iat": .integer(time),
            "exp": .integer(time + 600),
            "auth_time": .integer(time),
            "nonce_supported": .bool(true),
        ]
        switch defect {
        case .expired:
            claims["iat"] = .integer(time - 7_200)
            claims["auth_time"] = .integer(time - 7_200)
            claims["exp"] = .integer(time - 3_600)
        case .issuedInFuture:
            claims["iat"] = .integer(time + 3_600)
            claims["exp"] = .integer(time + 7_200)
        case .issuedSecondsAhead:
            claims["iat"] = .integer(time + 5)
        default:
            break
        }
        switch defect {
        case .nonceMismatch: claims["nonce"] = .string(RandomText.token())
        case .nonceMissing: claims["nonce_supported"] = .bool(false)
        default: content.nonce.map { claims["nonce"] = .string($0) }
        }
        if let code = content.code {
            claims["c_hash"] = .string(ConformanceSupport.leftHalfHash(defect == .codeHashMismatch ? RandomText.token() : code))
        }
        if let accessToken = content.accessToken { claims["at_hash"] = .string(ConformanceSupport.leftHalfHash(accessToken)) }
        if let status = content.realUserStatus { claims["real_user_status"] = .integer(status) }
        if let email = content.email {
            claims["email"] = .string(email)
            switch content.booleans {
            case .json:
                claims["email_verified"] = .bool(true)
                claims["is_private_email"] = .bool(content.isPrivateEmail)
            case .strings:
                claims["email_verified"] = .string("true")
                claims["is_private_email"] = .string(content.isPrivateEmail ? "true" : "false")
            }
        }
        return try sign(claims, defect: defect, keys: keys)
    }

    /// A server-to-server notification of `type` about `subject`, its `events` a JSON string as Apple sends it
    /// (or, `eventsAsObject`, the same object as a JSON object).
    func notification(
        type: String, subject: String, email: String, audience: String, defect: Scenario.Defect, eventsAsObject: Bool = false, keys: KitKeys
    ) throws -> String {
        let time = Int64(now.timeIntervalSince1970)
        var event: [String: ClaimValue] = ["type": .string(type), "sub": .string(subject), "event_time": .integer(time * 1000)]
        if type.hasPrefix("email-") {
            event["email"] = .string(email)
            event["is_private_email"] = .string("true")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let events = String(decoding: try encoder.encode(event), as: UTF8.self)
        let claims: [String: ClaimValue] = [
            "iss": .string(defect == .wrongIssuer ? Self.foreignIssuer : issuer),
            "aud": .string(defect == .wrongAudience ? audience + ".other" : audience),
            "iat": .integer(time), "exp": .integer(time + 600), "jti": .string(RandomText.hex32()),
            "events": eventsAsObject ? .object(event) : .string(events),
        ]
        return try sign(claims, defect: defect, keys: keys)
    }

    /// An issuer that is not Apple's: a look-alike host.
    static let foreignIssuer = "https://appleid.apple.com.example.net"

    private func sign(_ claims: [String: ClaimValue], defect: Scenario.Defect, keys: KitKeys) throws -> String {
        let key = keys.active
        switch defect {
        case .badSignature:
            // A genuine RS256 signature by the right key, over other content.
            let token = try ConformanceSupport.signRS256(claims, keyID: key.keyID, privateKey: key.privateKey)
            var other = claims
            other["jti"] = .string(RandomText.hex32())
            let foreign = try ConformanceSupport.signRS256(other, keyID: key.keyID, privateKey: key.privateKey)
            return Self.signingInput(token) + "." + Self.signature(foreign)
        case .algNone:
            return try Self.unsigned(claims, header: ["alg": "none", "kid": key.keyID]) + "."
        case .hs256WithPublicKey:
            let input = try Self.unsigned(claims, header: ["alg": "HS256", "kid": key.keyID])
            let secret = SymmetricKey(data: Data(key.privateKey.publicKey.pemRepresentation.utf8))
            let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)
            return input + "." + Base64URL.encode(Array(mac))
        case .unknownKeyID:
            let stranger = try KitKeys.unpublished()
            return try ConformanceSupport.signRS256(claims, keyID: stranger.keyID, privateKey: stranger.privateKey)
        default:
            return try ConformanceSupport.signRS256(claims, keyID: key.keyID, privateKey: key.privateKey)
        }
    }

    private static func unsigned(_ claims: [String: ClaimValue], header: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
    }

    private static func signingInput(_ token: String) -> String {
        token.split(separator: ".", omittingEmptySubsequences: false).prefix(2).joined(separator: ".")
    }

    private static func signature(_ token: String) -> String {
        String(token.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
    }
}

import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The verified claims of an Apple identity token.
///
/// Produced only by ``IdentityTokenVerifier``: holding one means signature, issuer, audience,
/// lifetime, nonce and (when checked) `c_hash` all passed.
public struct IdentityToken: Sendable, Hashable {
    /// The stable user identifier for this developer team (`sub`).
    public let subject: String
    /// The client id the token was issued to (`aud`).
    public let audience: String
    /// The issuer (`iss`).
    public let issuer: String
    /// When the token was issued (`iat`).
    public let issuedAt: Date
    /// When the token expires (`exp`).
    public let expiresAt: Date
    /// The email address, if the `email` scope was granted (may be a private relay address).
    public let email: String?
    /// Whether Apple verified the email (`email_verified`, sent as a string or boolean).
    public let emailVerified: Bool?
    /// Whether the email is a private relay address (`is_private_email`).
    public let isPrivateEmail: Bool?
    /// Apple's real-user assessment, on the first sign-in from a device only.
    public let realUserStatus: RealUserStatus?
    /// The user's identifier at the previous team, during the 60 days after an app transfer.
    public let transferSubject: String?
    /// When the user authenticated (`auth_time`).
    public let authTime: Date?
    /// Whether the platform supports nonces (`nonce_supported`).
    public let nonceSupported: Bool?
    /// The nonce the token carries.
    public let nonce: String?
    /// Every claim as sent, for anything this type does not model.
    package var claims: [String: JSONValue] { claimSet.dictionary }

    private let claimSet: ClaimSet

    /// `sub`, under the name AuthenticationServices uses.
    public var user: String { subject }

    /// Whether ``email`` is a relay address: by the `is_private_email` claim, or when it is absent by
    /// its domain (``AppleRelayDomains/isRelayAddress(_:)``: `private.icloud.com` or `privaterelay.appleid.com`).
    public var isRelayEmail: Bool {
        isPrivateEmail ?? (email.map { AppleRelayDomains.isRelayAddress($0) } ?? false)
    }
}

extension IdentityToken {
    /// Builds the typed view of already-verified claims.
    init(verifiedClaims claims: ClaimSet) throws(TokenVerificationError) {
        guard let subject = claims[.sub]?.stringValue, !subject.isEmpty else { throw .malformed("the token has no \"sub\" claim") }
        guard let issuer = claims[.iss]?.stringValue else { throw .malformed("the token has no \"iss\" claim") }
        guard let iat = claims[.iat]?.doubleValue else { throw .malformed("the token has no numeric \"iat\" claim") }
        guard let exp = claims[.exp]?.doubleValue else { throw .malformed("the token has no numeric \"exp\" claim") }
        self.subject = subject
        self.issuer = issuer
        self.audience = Self.firstAudience(in: claims[.aud])
        self.issuedAt = Date(timeIntervalSince1970: iat)
        self.expiresAt = Date(timeIntervalSince1970: exp)
        self.email = claims[.email]?.stringValue
        self.emailVerified = claims[.emailVerified]?.lenientBool
        self.isPrivateEmail = claims[.isPrivateEmail]?.lenientBool
        self.realUserStatus = claims[.realUserStatus]?.integerValue.flatMap { RealUserStatus(rawValue: Int($0)) }
        self.transferSubject = claims[.transferSub]?.stringValue
        self.authTime = claims[.authTime]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
        self.nonceSupported = claims[.nonceSupported]?.lenientBool
        self.nonce = claims[.nonce]?.stringValue
        self.claimSet = claims
    }

    /// The audience a token is for: `aud` itself when it is a string (as Apple sends it, read without
    /// building a list), else the first of its array; empty when it is neither.
    static func firstAudience(in value: JSONValue?) -> String {
        if case .string(let audience)? = value { return audience }
        return audiences(in: value)?.first ?? ""
    }

    /// `aud` as a list: a string is one audience, an array of strings several; anything else is `nil`.
    static func audiences(in value: JSONValue?) -> [String]? {
        switch value {
        case .string(let audience)?: return [audience]
        case .array(let entries)?:
            let audiences = entries.compactMap(\.stringValue)
            return audiences.count == entries.count && !audiences.isEmpty ? audiences : nil
        default: return nil
        }
    }

    /// The claims with Apple's names and every boolean-ish claim normalized to a JSON boolean.
    package var normalizedClaims: [String: JSONValue] {
        var normalized = claims
        for name in ["email_verified", "is_private_email", "nonce_supported"] {
            if let value = claims[name]?.lenientBool { normalized[name] = .bool(value) }
        }
        return normalized
    }
}

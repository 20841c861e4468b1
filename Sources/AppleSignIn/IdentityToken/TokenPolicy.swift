import Crypto
import Foundation
import JuiceEncodings

/// What a token is checked against, besides its signature.
public struct TokenExpectations: Sendable {
    /// The required `iss`.
    public var issuer: String
    /// The accepted `aud` values (client ids: bundle id, Services ID).
    public var audiences: Set<String>
    /// The current time.
    public var now: Date
    /// Allowed clock difference for `exp`, `iat` and `nbf`.
    public var clockSkew: TimeInterval
    /// The nonce the request carried, if any.
    public var nonce: String?
    /// The authorization code delivered with the token, if any (checked against `c_hash`).
    public var authorizationCode: String?
    /// Whether a token without a nonce is refused even when it says `nonce_supported: false` (the web
    /// always supports nonces, so only a native platform may claim it cannot carry one).
    public var requiresNonce: Bool = false
}

/// One rule a token's claims must satisfy; each refusal is a precise ``TokenVerificationError``.
protocol TokenPolicy: Sendable {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError)
}

/// `iss` must equal the expected issuer exactly.
struct IssuerPolicy: TokenPolicy {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let issuer = claims[.iss]?.stringValue else { throw .malformed("the token has no \"iss\" claim") }
        guard issuer == expected.issuer else {
            throw TokenVerificationError(.wrongIssuer, "the token was issued by \"\(issuer.prefix(200))\", not \"\(expected.issuer)\"")
        }
    }
}

/// `aud` must be one of the configured client ids (every entry, when it is an array).
struct AudiencePolicy: TokenPolicy {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        let value = claims[.aud]
        // Apple's tokens carry one audience as a string: checked without building a list.
        if case .string(let audience)? = value, expected.audiences.contains(audience) { return }
        guard let audiences = IdentityToken.audiences(in: value) else {
            throw .malformed("the token has no \"aud\" claim (a string or an array of strings)")
        }
        for audience in audiences where !expected.audiences.contains(audience) {
            throw TokenVerificationError(
                .wrongAudience,
                "the token is for \"\(audience.prefix(200))\", which is not one of the accepted client ids \(expected.audiences.sorted())"
            )
        }
    }
}

/// `exp` must be in the future and `iat`/`nbf` not in the future, each within the clock skew.
struct LifetimePolicy: TokenPolicy {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let exp = claims[.exp]?.doubleValue else { throw .malformed("the token has no numeric \"exp\" claim") }
        guard let iat = claims[.iat]?.doubleValue else { throw .malformed("the token has no numeric \"iat\" claim") }
        let now = expected.now.timeIntervalSince1970
        guard now <= exp + expected.clockSkew else {
            throw TokenVerificationError(.expired, "the token expired at \(Self.format(exp)) (now \(Self.format(now)))")
        }
        guard iat <= now + expected.clockSkew else {
            throw TokenVerificationError(.notYetValid, "the token is issued at \(Self.format(iat)), in the future (now \(Self.format(now)))")
        }
        if let notBefore = claims[.nbf] {
            guard let nbf = notBefore.doubleValue else { throw .malformed("the \"nbf\" claim is not a number") }
            guard nbf <= now + expected.clockSkew else {
                throw TokenVerificationError(.notYetValid, "the token is not valid before \(Self.format(nbf)) (now \(Self.format(now)))")
            }
        }
    }

    static func format(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}

/// The token's `nonce` must equal the expected nonce; a token that supports nonces must carry one.
struct NoncePolicy: TokenPolicy {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let expectedNonce = expected.nonce else { return }
        guard let nonceClaim = claims[.nonce] else {
            // Only a platform that says it cannot carry a nonce is excused from carrying one, and only
            // where the caller allows that excuse (never on the web).
            if !expected.requiresNonce, claims[.nonceSupported]?.lenientBool == false { return }
            throw TokenVerificationError(.missingNonce, "a nonce was expected but the token carries none")
        }
        guard let nonce = nonceClaim.stringValue else { throw .malformed("the \"nonce\" claim is not a string") }
        guard constantTimeEquals(nonce, expectedNonce) else {
            throw TokenVerificationError(.nonceMismatch, "the token's nonce is not the one this request was started with")
        }
    }
}

/// `c_hash` must be base64url(left half of SHA-256(code)) when the code is at hand.
struct CodeHashPolicy: TokenPolicy {
    func check(_ claims: ClaimSet, against expected: TokenExpectations) throws(TokenVerificationError) {
        guard let code = expected.authorizationCode else { return }
        guard let codeHash = claims[.cHash]?.stringValue else {
            throw TokenVerificationError(.codeHashMismatch, "an authorization code came with the token but the token has no \"c_hash\"")
        }
        guard constantTimeEquals(codeHash, Self.hash(of: code)) else {
            throw TokenVerificationError(.codeHashMismatch, "the token's c_hash does not match the authorization code it came with")
        }
    }

    /// base64url of the left 16 bytes of SHA-256 of `value` (the OpenID Connect `c_hash`/`at_hash`).
    static func hash(of value: String) -> String {
        var hasher = SHA256()
        var value = value
        value.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize().withUnsafeBytes { Base64URL.encode(UnsafeRawBufferPointer(rebasing: $0.prefix(16))) }
    }
}

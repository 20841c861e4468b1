import JuiceEncodings

/// Why a token (identity token or server notification) was refused.
///
/// Every refusal carries a stable machine-readable ``code`` and a human ``reason``. The reason never
/// contains the token itself. Two errors are equal when their codes are equal.
///
/// ```swift
/// do { _ = try await verifier.verify(token, nonceClaim: nonce) }
/// catch let error as TokenVerificationError where error.code == .expired { … }
/// ```
public struct TokenVerificationError: CodedError {
    /// A stable identifier for the refusal, e.g. `"wrong_audience"`.
    public typealias Code = ErrorCode<TokenVerificationError>

    /// The machine-readable code.
    public let code: Code
    /// A human explanation, safe to log (never contains the token).
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code): \(reason)" }

    static func malformed(_ reason: String) -> Self { .init(.malformed, reason) }
}

extension ErrorCode<TokenVerificationError> {
    /// Every code (for tests that a mapping misses none).
    static var all: [Self] {
        [
            .malformed, .unsupportedAlgorithm, .unknownKey, .badSignature, .wrongIssuer, .wrongAudience, .expired, .notYetValid, .nonceMismatch,
            .missingNonce, .codeHashMismatch, .keysUnavailable,
        ]
    }
    /// Not a compact JWS, bad base64url, bad JSON, or a required claim missing or of the wrong type.
    public static var malformed: Self { Self("malformed") }
    /// The header's `alg` is not RS256 (`none`, HS*, ES*, …).
    public static var unsupportedAlgorithm: Self { Self("unsupported_algorithm") }
    /// The header's `kid` is absent or names no key Apple publishes, even after a refetch.
    public static var unknownKey: Self { Self("unknown_key") }
    /// The RS256 signature does not verify with the named key.
    public static var badSignature: Self { Self("bad_signature") }
    /// `iss` is not the expected issuer.
    public static var wrongIssuer: Self { Self("wrong_issuer") }
    /// `aud` is not one of the configured client ids.
    public static var wrongAudience: Self { Self("wrong_audience") }
    /// `exp` is in the past (beyond the allowed clock skew).
    public static var expired: Self { Self("expired") }
    /// `iat` (or `nbf`) is in the future (beyond the allowed clock skew).
    public static var notYetValid: Self { Self("not_yet_valid") }
    /// The token's `nonce` differs from the expected one.
    public static var nonceMismatch: Self { Self("nonce_mismatch") }
    /// A nonce was expected and the token, which supports nonces, carries none.
    public static var missingNonce: Self { Self("missing_nonce") }
    /// `c_hash` does not match the authorization code (or is missing when a code was given).
    public static var codeHashMismatch: Self { Self("code_hash_mismatch") }
    /// No signing keys are available: Apple's key endpoint could not be read and nothing is cached.
    public static var keysUnavailable: Self { Self("keys_unavailable") }
}

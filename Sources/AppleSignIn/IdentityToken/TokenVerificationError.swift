/// Why a token (identity token or server notification) was refused.
///
/// Every refusal carries a stable machine-readable ``code`` and a human ``reason``. The reason never
/// contains the token itself. Two errors are equal when their codes are equal.
///
/// ```swift
/// do { _ = try await verifier.verify(token, nonce: nonce) }
/// catch let error as TokenVerificationError where error.code == .expired { … }
/// ```
public struct TokenVerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the refusal, e.g. `"wrong_audience"`.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not a compact JWS, bad base64url, bad JSON, or a required claim missing or of the wrong type.
        public static let malformed = Code(rawValue: "malformed")
        /// The header's `alg` is not RS256 (`none`, HS*, ES*, …).
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported_algorithm")
        /// The header's `kid` is absent or names no key Apple publishes, even after a refetch.
        public static let unknownKey = Code(rawValue: "unknown_key")
        /// The RS256 signature does not verify with the named key.
        public static let badSignature = Code(rawValue: "bad_signature")
        /// `iss` is not the expected issuer.
        public static let wrongIssuer = Code(rawValue: "wrong_issuer")
        /// `aud` is not one of the configured client ids.
        public static let wrongAudience = Code(rawValue: "wrong_audience")
        /// `exp` is in the past (beyond the allowed clock skew).
        public static let expired = Code(rawValue: "expired")
        /// `iat` (or `nbf`) is in the future (beyond the allowed clock skew).
        public static let notYetValid = Code(rawValue: "not_yet_valid")
        /// The token's `nonce` differs from the expected one.
        public static let nonceMismatch = Code(rawValue: "nonce_mismatch")
        /// A nonce was expected and the token, which supports nonces, carries none.
        public static let missingNonce = Code(rawValue: "missing_nonce")
        /// `c_hash` does not match the authorization code (or is missing when a code was given).
        public static let codeHashMismatch = Code(rawValue: "code_hash_mismatch")
        /// No signing keys are available: Apple's key endpoint could not be read and nothing is cached.
        public static let keysUnavailable = Code(rawValue: "keys_unavailable")
    }

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

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    static func malformed(_ reason: String) -> Self { .init(.malformed, reason) }
}

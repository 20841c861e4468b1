/// Why a token (identity token or server notification) was refused.
///
/// Every refusal carries a stable machine-readable ``code`` and a human ``reason``. The reason never
/// contains the token itself. Two errors are equal when their codes are equal.
///
/// ```swift
/// do { _ = try await verifier.verify(token, nonceClaim: nonce) }
/// catch let error as TokenVerificationError where error.code == .expired { … }
/// ```
public struct TokenVerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the refusal, e.g. `"wrong_audience"`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        // The set of codes is closed: a caller matches on the static members and cannot invent one.
        private enum Base: String, Sendable, CaseIterable {
            case malformed
            case unsupportedAlgorithm = "unsupported_algorithm"
            case unknownKey = "unknown_key"
            case badSignature = "bad_signature"
            case wrongIssuer = "wrong_issuer"
            case wrongAudience = "wrong_audience"
            case expired
            case notYetValid = "not_yet_valid"
            case nonceMismatch = "nonce_mismatch"
            case missingNonce = "missing_nonce"
            case codeHashMismatch = "code_hash_mismatch"
            case keysUnavailable = "keys_unavailable"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Every code (for tests that a mapping misses none).
        static var all: [Code] { Base.allCases.map(Code.init) }

        /// The stable string of the code, e.g. for a log line or an error body.
        public var description: String { base.rawValue }

        /// Not a compact JWS, bad base64url, bad JSON, or a required claim missing or of the wrong type.
        public static let malformed = Code(.malformed)
        /// The header's `alg` is not RS256 (`none`, HS*, ES*, …).
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The header's `kid` is absent or names no key Apple publishes, even after a refetch.
        public static let unknownKey = Code(.unknownKey)
        /// The RS256 signature does not verify with the named key.
        public static let badSignature = Code(.badSignature)
        /// `iss` is not the expected issuer.
        public static let wrongIssuer = Code(.wrongIssuer)
        /// `aud` is not one of the configured client ids.
        public static let wrongAudience = Code(.wrongAudience)
        /// `exp` is in the past (beyond the allowed clock skew).
        public static let expired = Code(.expired)
        /// `iat` (or `nbf`) is in the future (beyond the allowed clock skew).
        public static let notYetValid = Code(.notYetValid)
        /// The token's `nonce` differs from the expected one.
        public static let nonceMismatch = Code(.nonceMismatch)
        /// A nonce was expected and the token, which supports nonces, carries none.
        public static let missingNonce = Code(.missingNonce)
        /// `c_hash` does not match the authorization code (or is missing when a code was given).
        public static let codeHashMismatch = Code(.codeHashMismatch)
        /// No signing keys are available: Apple's key endpoint could not be read and nothing is cached.
        public static let keysUnavailable = Code(.keysUnavailable)
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

/// A call to Apple's REST endpoints that failed.
///
/// When Apple answered with an error body, ``code`` is ``Code/apple`` and ``appleError`` /
/// ``appleErrorDescription`` carry Apple's `error` and `error_description` (e.g. `invalid_grant`).
public struct AppleIDClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        // The set of codes is closed: a caller matches on the static members and cannot invent one.
        private enum Base: String, Sendable {
            case apple = "apple_error"
            case timeout
            case unreachable
            case invalidResponse = "invalid_response"
            case clientSecret = "client_secret"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The stable string of the code, e.g. for a log line or an error body.
        public var description: String { base.rawValue }

        /// Apple answered with an OAuth error body.
        public static let apple = Code(.apple)
        /// No answer within the deadline.
        public static let timeout = Code(.timeout)
        /// Apple could not be reached (connection, TLS, DNS).
        public static let unreachable = Code(.unreachable)
        /// Apple answered something that is not its documented shape.
        public static let invalidResponse = Code(.invalidResponse)
        /// The client secret could not be signed.
        public static let clientSecret = Code(.clientSecret)
    }

    /// The kind of failure.
    public let code: Code
    /// For humans; never contains secrets or tokens.
    public let reason: String
    /// Apple's `error`, e.g. `invalid_grant`.
    public let appleError: String?
    /// Apple's `error_description`, if it sent one.
    public let appleErrorDescription: String?
    /// The HTTP status Apple answered with, if it answered.
    public let status: Int?

    public init(_ code: Code, _ reason: String, appleError: String? = nil, appleErrorDescription: String? = nil, status: Int? = nil) {
        self.code = code
        self.reason = reason
        self.appleError = appleError
        self.appleErrorDescription = appleErrorDescription
        self.status = status
    }

    /// Whether Apple said the grant (code or refresh token) is invalid: for a refresh token, the user
    /// revoked consent or deleted their Apple ID.
    public var isInvalidGrant: Bool { appleError == "invalid_grant" }

    /// Whether the failure may pass on its own (timeouts, unreachable, Apple's 5xx/429).
    public var isTransient: Bool {
        switch code {
        case .timeout, .unreachable: return true
        case .invalidResponse: return (status ?? 0) >= 500 || status == 429
        default: return false
        }
    }

    public var description: String { "\(code): \(reason)" }
}

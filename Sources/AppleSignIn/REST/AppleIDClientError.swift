import JuiceEncodings

/// A call to Apple's REST endpoints that failed.
///
/// When Apple answered with an error body, ``code`` is ``Code/apple`` and ``appleError`` /
/// ``appleErrorDescription`` carry Apple's `error` and `error_description` (e.g. `invalid_grant`).
public struct AppleIDClientError: CodedError {
    /// What kind of failure.
    public typealias Code = ErrorCode<AppleIDClientError>

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

extension ErrorCode<AppleIDClientError> {
    /// Apple answered with an OAuth error body.
    public static var apple: Self { Self("apple_error") }
    /// No answer within the deadline.
    public static var timeout: Self { Self("timeout") }
    /// Apple could not be reached (connection, TLS, DNS).
    public static var unreachable: Self { Self("unreachable") }
    /// Apple answered something that is not its documented shape.
    public static var invalidResponse: Self { Self("invalid_response") }
    /// The client secret could not be signed.
    public static var clientSecret: Self { Self("client_secret") }
}

import JuiceEncodings

/// An authorization response that cannot be used.
public struct AuthorizationResponseError: CodedError {
    /// A stable identifier for the problem.
    public typealias Code = ErrorCode<AuthorizationResponseError>

    /// The problem.
    public let code: Code
    /// For humans; never contains the code or token.
    public let reason: String
    /// The `state` that came with the response, when there was one (so it can still be consumed).
    public let state: String?
    /// Apple's `error` value, for ``Code/appleError`` and ``Code/userCancelled``.
    public let appleError: String?

    public init(_ code: Code, _ reason: String, state: String? = nil, appleError: String? = nil) {
        self.code = code
        self.reason = reason
        self.state = state
        self.appleError = appleError
    }

    public var description: String { "\(code): \(reason)" }

}

extension ErrorCode<AuthorizationResponseError> {
    /// The person pressed Cancel (`error=user_cancelled_authorize`).
    public static var userCancelled: Self { Self("user_cancelled_authorize") }
    /// Apple returned another `error`.
    public static var appleError: Self { Self("apple_error") }
    /// A required field (`code`, `state`) is missing or empty.
    public static var missingField: Self { Self("missing_field") }
    /// The `user` field is not the JSON Apple sends.
    public static var malformedUser: Self { Self("malformed_user") }
    /// The body is not form-urlencoded UTF-8, or is too large.
    public static var malformedBody: Self { Self("malformed_body") }
}

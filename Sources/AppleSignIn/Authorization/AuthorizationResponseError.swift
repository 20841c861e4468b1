/// An authorization response that cannot be used.
public struct AuthorizationResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the problem.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The person pressed Cancel (`error=user_cancelled_authorize`).
        public static let userCancelled = Code(rawValue: "user_cancelled_authorize")
        /// Apple returned another `error`.
        public static let appleError = Code(rawValue: "apple_error")
        /// A required field (`code`, `state`) is missing or empty.
        public static let missingField = Code(rawValue: "missing_field")
        /// The `user` field is not the JSON Apple sends.
        public static let malformedUser = Code(rawValue: "malformed_user")
        /// The body is not form-urlencoded UTF-8, or is too large.
        public static let malformedBody = Code(rawValue: "malformed_body")
    }

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

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

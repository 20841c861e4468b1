/// An authorization response that cannot be used.
public struct AuthorizationResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the problem.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        // The set of codes is closed: a caller matches on the static members and cannot invent one.
        private enum Base: String, Sendable {
            case userCancelled = "user_cancelled_authorize"
            case appleError = "apple_error"
            case missingField = "missing_field"
            case malformedUser = "malformed_user"
            case malformedBody = "malformed_body"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The stable string of the code, e.g. for a log line or an error body.
        public var description: String { base.rawValue }

        /// The person pressed Cancel (`error=user_cancelled_authorize`).
        public static let userCancelled = Code(.userCancelled)
        /// Apple returned another `error`.
        public static let appleError = Code(.appleError)
        /// A required field (`code`, `state`) is missing or empty.
        public static let missingField = Code(.missingField)
        /// The `user` field is not the JSON Apple sends.
        public static let malformedUser = Code(.malformedUser)
        /// The body is not form-urlencoded UTF-8, or is too large.
        public static let malformedBody = Code(.malformedBody)
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

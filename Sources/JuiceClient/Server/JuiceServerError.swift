/// Why a call to the Juice server failed: the server's own `{"error", "reason"}` answer, an answer
/// that is not the documented shape, or no answer at all. Never carries a token or password.
///
/// ```swift
/// do {
///     _ = try await api.account(sessionToken: token)
/// } catch let error where error.code == .unauthorized {
///     try await store.removeSession(for: api.baseURL)
/// }
/// ```
public struct JuiceServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the problem: the server's `error` code, or one of the client's own.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The server could not be reached, or did not answer in time (client-side).
        public static let unreachable = Code(rawValue: "unreachable")
        /// The server answered something other than the documented shape (client-side).
        public static let unexpectedResponse = Code(rawValue: "unexpected_response")
        /// The server: the request is malformed.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The server: no valid session or bearer token.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The server: the identity token failed verification.
        public static let invalidIdentityToken = Code(rawValue: "invalid_identity_token")
        /// The server: the authorization code was already used, or Apple refused it.
        public static let invalidCode = Code(rawValue: "invalid_code")
        /// The server: wrong user name or password.
        public static let invalidCredentials = Code(rawValue: "invalid_credentials")
        /// The server: too many attempts.
        public static let rateLimited = Code(rawValue: "rate_limited")
        /// The server: Apple could not be reached.
        public static let appleUnavailable = Code(rawValue: "apple_unavailable")
        /// The server: no such resource.
        public static let notFound = Code(rawValue: "not_found")
        /// The server: an internal failure.
        public static let internalError = Code(rawValue: "internal_error")
    }

    /// What went wrong.
    public let code: Code
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// For humans: the server's `reason`, or the client's description of the failure.
    public let reason: String

    /// An error with `code`, the HTTP `status` if any, and `reason`.
    public init(_ code: Code, status: Int? = nil, _ reason: String) {
        self.code = code
        self.status = status
        self.reason = reason
    }

    /// ``Code/unreachable``.
    public static func unreachable(_ reason: String) -> Self { Self(.unreachable, reason) }
    /// ``Code/unexpectedResponse``.
    public static func unexpectedResponse(status: Int?, _ reason: String) -> Self { Self(.unexpectedResponse, status: status, reason) }

    public var description: String { status.map { "\(code) (HTTP \($0)): \(reason)" } ?? "\(code): \(reason)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

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
    /// A stable identifier for the problem, e.g. `"unreachable"`; the set is closed.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, CaseIterable {
            case unreachable = "unreachable"
            case unexpectedResponse = "unexpected_response"
            case unrecognized = "unrecognized"
            case invalidRequest = "invalid_request"
            case unauthorized = "unauthorized"
            case invalidIdentityToken = "invalid_identity_token"
            case invalidCode = "invalid_code"
            case invalidNonce = "invalid_nonce"
            case invalidCredentials = "invalid_credentials"
            case usernameTaken = "username_taken"
            case invalidUsername = "invalid_username"
            case weakPassword = "weak_password"
            case reauthenticationRequired = "reauthentication_required"
            case rateLimited = "rate_limited"
            case serverBusy = "server_busy"
            case appleUnavailable = "apple_unavailable"
            case lastSignInMethod = "last_sign_in_method"
            case challengeUnknown = "challenge_unknown"
            case challengeExpired = "challenge_expired"
            case originMismatch = "origin_mismatch"
            case unknownCredential = "unknown_credential"
            case credentialExists = "credential_exists"
            case counterRegressed = "counter_regressed"
            case badSignature = "bad_signature"
            case notFound = "not_found"
            case internalError = "internal_error"
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The code the server's `error` names, or ``unrecognized`` for one this client does not know.
        init(serverCode: String) { self.base = Base(rawValue: serverCode) ?? .unrecognized }

        /// The code's stable string, as the server writes it.
        public var description: String { base.rawValue }

        /// The server could not be reached, or did not answer in time (client-side).
        public static let unreachable = Code(.unreachable)

        /// The server answered something other than the documented shape (client-side).
        public static let unexpectedResponse = Code(.unexpectedResponse)

        /// The server answered a code this client does not know; ``JuiceServerError/serverCode`` holds it.
        public static let unrecognized = Code(.unrecognized)

        /// The server: the request is malformed.
        public static let invalidRequest = Code(.invalidRequest)

        /// The server: no valid session or bearer token.
        public static let unauthorized = Code(.unauthorized)

        /// The server: the identity token failed verification.
        public static let invalidIdentityToken = Code(.invalidIdentityToken)

        /// The server: the authorization code was already used, or Apple refused it.
        public static let invalidCode = Code(.invalidCode)

        /// The server: the nonce is unknown, expired or already used.
        public static let invalidNonce = Code(.invalidNonce)

        /// The server: wrong user name or password.
        public static let invalidCredentials = Code(.invalidCredentials)

        /// The server: the username belongs to another account.
        public static let usernameTaken = Code(.usernameTaken)

        /// The server: the username breaks a rule; the reason says which.
        public static let invalidUsername = Code(.invalidUsername)

        /// The server: the password is too easy to guess; the reason says why.
        public static let weakPassword = Code(.weakPassword)

        /// The server: the change needs a fresh sign-in.
        public static let reauthenticationRequired = Code(.reauthenticationRequired)

        /// The server: too many attempts.
        public static let rateLimited = Code(.rateLimited)

        /// The server: every password-hashing slot is taken; try again shortly.
        public static let serverBusy = Code(.serverBusy)

        /// The server: Apple could not be reached.
        public static let appleUnavailable = Code(.appleUnavailable)

        /// The server: that passkey is the account's last way to sign in.
        public static let lastSignInMethod = Code(.lastSignInMethod)

        /// The server: the passkey challenge was never issued or was already used.
        public static let challengeUnknown = Code(.challengeUnknown)

        /// The server: the passkey challenge has expired.
        public static let challengeExpired = Code(.challengeExpired)

        /// The server: the passkey was used for another origin than the server's.
        public static let originMismatch = Code(.originMismatch)

        /// The server: no account has that passkey (it was removed).
        public static let unknownCredential = Code(.unknownCredential)

        /// The server: that passkey is already registered.
        public static let credentialExists = Code(.credentialExists)

        /// The server: the passkey's signature counter went back (a copied authenticator).
        public static let counterRegressed = Code(.counterRegressed)

        /// The server: the passkey's signature does not verify.
        public static let badSignature = Code(.badSignature)

        /// The server: no such resource.
        public static let notFound = Code(.notFound)

        /// The server: an internal failure.
        public static let internalError = Code(.internalError)
    }

    /// What went wrong.
    public let code: Code
    /// The server's `error` as it wrote it (at most 100 characters), when the server answered with one: a
    /// code this client does not know travels here, with ``code`` ``Code/unrecognized``.
    public let serverCode: String?
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// For humans: the server's `reason`, or the client's description of the failure.
    public let reason: String

    /// An error with `code`, the HTTP `status` if any, and `reason`.
    init(_ code: Code, serverCode: String? = nil, status: Int? = nil, _ reason: String) {
        self.code = code
        self.serverCode = serverCode
        self.status = status
        self.reason = reason
    }

    /// The error a server's `{"error", "reason"}` answer with `status` describes.
    init(serverCode: String, status: Int, reason: String) {
        let serverCode = String(serverCode.prefix(100))
        self.init(Code(serverCode: serverCode), serverCode: serverCode, status: status, reason)
    }

    /// ``Code/unreachable``.
    static func unreachable(_ reason: String) -> Self { Self(.unreachable, reason) }
    /// ``Code/unexpectedResponse``.
    static func unexpectedResponse(status: Int?, _ reason: String) -> Self { Self(.unexpectedResponse, status: status, reason) }

    public var description: String {
        let code = serverCode ?? self.code.description
        return status.map { "\(code) (HTTP \($0)): \(reason)" } ?? "\(code): \(reason)"
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

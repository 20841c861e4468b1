import JuiceEncodings

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
public struct JuiceServerError: CodedError {
    /// A stable identifier for the problem, e.g. `"unreachable"`; the set is closed.
    public typealias Code = ErrorCode<JuiceServerError>

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

}

extension ErrorCode<JuiceServerError> {
    /// The server could not be reached, or did not answer in time (client-side).
    public static var unreachable: Self { Self("unreachable") }
    /// The server answered something other than the documented shape (client-side).
    public static var unexpectedResponse: Self { Self("unexpected_response") }
    /// The server answered a code this client does not know; ``JuiceServerError/serverCode`` holds it.
    public static var unrecognized: Self { Self("unrecognized") }
    /// The server: the request is malformed.
    public static var invalidRequest: Self { Self("invalid_request") }
    /// The server: no valid session or bearer token.
    public static var unauthorized: Self { Self("unauthorized") }
    /// The server: the identity token failed verification.
    public static var invalidIdentityToken: Self { Self("invalid_identity_token") }
    /// The server: the authorization code was already used, or Apple refused it.
    public static var invalidCode: Self { Self("invalid_code") }
    /// The server: the nonce is unknown, expired or already used.
    public static var invalidNonce: Self { Self("invalid_nonce") }
    /// The server: wrong user name or password.
    public static var invalidCredentials: Self { Self("invalid_credentials") }
    /// The server: the username belongs to another account.
    public static var usernameTaken: Self { Self("username_taken") }
    /// The server: the username breaks a rule; the reason says which.
    public static var invalidUsername: Self { Self("invalid_username") }
    /// The server: the password is too easy to guess; the reason says why.
    public static var weakPassword: Self { Self("weak_password") }
    /// The server: the change needs a fresh sign-in.
    public static var reauthenticationRequired: Self { Self("reauthentication_required") }
    /// The server: too many attempts.
    public static var rateLimited: Self { Self("rate_limited") }
    /// The server: every password-hashing slot is taken; try again shortly.
    public static var serverBusy: Self { Self("server_busy") }
    /// The server: Apple could not be reached.
    public static var appleUnavailable: Self { Self("apple_unavailable") }
    /// The server: that passkey is the account's last way to sign in.
    public static var lastSignInMethod: Self { Self("last_sign_in_method") }
    /// The server: the passkey challenge was never issued or was already used.
    public static var challengeUnknown: Self { Self("challenge_unknown") }
    /// The server: the passkey challenge has expired.
    public static var challengeExpired: Self { Self("challenge_expired") }
    /// The server: the passkey was used for another origin than the server's.
    public static var originMismatch: Self { Self("origin_mismatch") }
    /// The server: no account has that passkey (it was removed).
    public static var unknownCredential: Self { Self("unknown_credential") }
    /// The server: that passkey is already registered.
    public static var credentialExists: Self { Self("credential_exists") }
    /// The server: the passkey's signature counter went back (a copied authenticator).
    public static var counterRegressed: Self { Self("counter_regressed") }
    /// The server: the passkey's signature does not verify.
    public static var badSignature: Self { Self("bad_signature") }
    /// The server: no such resource.
    public static var notFound: Self { Self("not_found") }
    /// The server: an internal failure.
    public static var internalError: Self { Self("internal_error") }
    /// The code a server's `error` names, or ``unrecognized`` for one this client does not know.
    init(serverCode: String) {
        self = Self.answered.first { $0.description == serverCode } ?? .unrecognized
    }

    /// The codes the server answers with (the client-side ones excepted).
    static var answered: [Self] {
        [
            .invalidRequest, .unauthorized, .invalidIdentityToken, .invalidCode, .invalidNonce, .invalidCredentials, .usernameTaken, .invalidUsername,
            .weakPassword, .reauthenticationRequired, .rateLimited, .serverBusy, .appleUnavailable, .lastSignInMethod, .challengeUnknown,
            .challengeExpired, .originMismatch, .unknownCredential, .credentialExists, .counterRegressed, .badSignature, .notFound, .internalError,
        ]
    }
}

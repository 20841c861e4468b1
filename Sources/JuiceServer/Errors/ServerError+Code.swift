import JuiceEncodings

/// Every code the server answers with, in one closed set: the server's own (below), and a lower layer's
/// refusal carried as it is (``PasskeyError`` and the notification verifier's ``TokenVerificationError``:
/// `ServerError.Code(refusal.code)`), never made up from a string.
extension ServerError {
    typealias Code = ErrorCode<ServerError>
}

extension ErrorCode<ServerError> {
    /// The code as the JSON body's `error` carries it.
    var rawValue: String { description }

    /// The request is malformed.
    static var invalidRequest: Self { Self("invalid_request") }
    /// No valid session or bearer token.
    static var unauthorized: Self { Self("unauthorized") }
    /// The form's CSRF token is missing or wrong.
    static var invalidCSRFToken: Self { Self("invalid_csrf_token") }
    /// The sign-in `state` is unknown, expired or already used.
    static var invalidState: Self { Self("invalid_state") }
    /// The identity token failed verification.
    static var invalidIdentityToken: Self { Self("invalid_identity_token") }
    /// The authorization code was already used, or Apple refused it.
    static var invalidCode: Self { Self("invalid_code") }
    /// Apple answered the sign-in with an error.
    static var appleError: Self { Self("apple_error") }
    /// Apple could not be reached.
    static var appleUnavailable: Self { Self("apple_unavailable") }
    /// Wrong username or password (deliberately the same for both).
    static var invalidCredentials: Self { Self("invalid_credentials") }
    /// The username is taken.
    static var usernameTaken: Self { Self("username_taken") }
    /// The password does not meet the length rules.
    static var invalidPassword: Self { Self("invalid_password") }
    /// A new password holds a control character (NUL, tab, a line break…).
    static var passwordInvalidCharacters: Self { Self("password_invalid_characters") }
    /// A new password is longer than the 72 UTF-8 bytes bcrypt reads.
    static var passwordTooLong: Self { Self("password_too_long") }
    /// Stored text (a passkey's name) holds a control character: C0 (NUL, tab, a line break…), DEL or C1.
    static var invalidText: Self { Self("invalid_text") }
    /// Stored text is longer than its limit in Unicode scalars or UTF-8 bytes.
    static var textTooLong: Self { Self("text_too_long") }
    /// Too many attempts; try later.
    static var rateLimited: Self { Self("rate_limited") }
    /// The Apple ID is already linked to another account.
    static var appleIDInUse: Self { Self("apple_id_in_use") }
    /// No such page or resource.
    static var notFound: Self { Self("not_found") }
    /// Something failed inside the server.
    static var internalError: Self { Self("internal_error") }
    /// The loopback bridge's `redirect_uri` is not a loopback `http` URI with a port.
    static var invalidRedirectURI: Self { Self("invalid_redirect_uri") }
    /// The native sign-in's nonce is unknown, expired or already used.
    static var invalidNonce: Self { Self("invalid_nonce") }
    /// The request body is not `application/json`.
    static var unsupportedMediaType: Self { Self("unsupported_media_type") }
    /// The request body is larger than the server accepts.
    static var payloadTooLarge: Self { Self("payload_too_large") }
    /// A server-to-server notification failed verification.
    static var invalidNotification: Self { Self("invalid_notification") }
    /// The new password is too easy to guess (a common password, contains the username, repetitive, sequential, or unchanged); the reason says which.
    static var weakPassword: Self { Self("weak_password") }
    /// The username breaks a rule (length, spaces, invisible or direction-changing characters); the reason says which.
    static var invalidUsername: Self { Self("invalid_username") }
    /// The change needs a fresh sign-in (within the last minutes).
    static var reauthenticationRequired: Self { Self("reauthentication_required") }
    /// A web sign-in is finished in a browser (or session) other than the one that started it.
    static var browserMismatch: Self { Self("browser_mismatch") }
    /// Every slot for password hashing is taken and its queue is full; try again shortly.
    static var serverBusy: Self { Self("server_busy") }
    /// The passkey to remove is the account's last way to sign in (no password, no Apple ID, no other passkey).
    static var lastSignInMethod: Self { Self("last_sign_in_method") }
    /// The path exists but does not answer this method (the answer's `Allow` lists those it does).
    static var methodNotAllowed: Self { Self("method_not_allowed") }
    /// An automatic passkey upgrade (conditional create) outside a session that signed in with a password in the last minutes.
    static var upgradeNotAllowed: Self { Self("upgrade_not_allowed") }
}

import AppleSignIn

/// The server's own settings, next to the toolkit's in one `juice.json` (see docs/server.md for each).
extension ConfigurationField {
    /// The URL people open.
    static let publicURL = Self("public_url")
    /// `postgres://…` or a SQLite path; the data directory's `juice.sqlite` when absent.
    static let databaseURL = Self("database_url")
    /// The address to listen on.
    static let host = Self("host")
    /// The port to listen on.
    static let port = Self("port")
    /// How long a session lasts, in seconds.
    static let sessionLifetime = Self("session_lifetime")
    /// The server's secret key (32 bytes, base64), inline.
    static let refreshTokenKey = Self("refresh_token_key")
    /// The server's secret key, in a file.
    static let refreshTokenKeyPath = Self("refresh_token_key_path")
    /// bcrypt's cost.
    static let passwordHashCost = Self("password_hash_cost")
    /// The SMTP server Juice sends its mail through.
    static let smtpURL = Self("smtp_url")
    /// The sender of Juice's mail.
    static let mailFrom = Self("mail_from")
    /// The proxies whose forwarded headers are believed.
    static let trustedProxies = Self("trusted_proxies", list: true)
    /// Whether a native sign-in must carry a nonce.
    static let requireNonce = Self("require_nonce")
    /// HTTP keep-alive idle timeout, in seconds.
    static let idleTimeout = Self("idle_timeout")
    /// How long a request's head may take, in seconds.
    static let headerTimeout = Self("header_timeout")
    /// How long a request's body may take, in seconds.
    static let bodyTimeout = Self("body_timeout")
    /// Sign-ups per client address per hour.
    static let signUpLimit = Self("sign_up_limit")
    /// bcrypt hashes at once.
    static let passwordHashConcurrency = Self("password_hash_concurrency")
    /// The passkey relying party id.
    static let passkeyRelyingPartyID = Self("passkey_rp_id")
    /// Origins passkeys may be used from (apps, other ports).
    static let passkeyOrigins = Self("passkey_origins", list: true)
    /// Other https origins listed in `/.well-known/webauthn`.
    static let passkeyRelatedOrigins = Self("passkey_related_origins", list: true)

    /// The server's settings, the table ``ServerConfiguration/load(file:environment:overrides:dataDirectory:)`` reads.
    static let server: [Self] = [
        .publicURL, .databaseURL, .host, .port, .sessionLifetime, .refreshTokenKey, .refreshTokenKeyPath, .passwordHashCost, .smtpURL, .mailFrom,
        .trustedProxies, .requireNonce, .idleTimeout, .headerTimeout, .bodyTimeout, .signUpLimit, .passwordHashConcurrency,
        .passkeyRelyingPartyID, .passkeyOrigins, .passkeyRelatedOrigins,
    ]
}

import AppleSignIn
import Crypto
import Foundation
import JuiceEncodings

/// Everything `juice serve` needs to run: how to reach Apple, where it is published, its database,
/// and its session and secret settings.
///
/// Build one in code (tests, development mode) or load it with
/// ``load(file:environment:overrides:)`` from a `juice.json` in the shape Apple's developers already
/// write, plus the server's own settings.
///
/// ```swift
/// let configuration = try ServerConfiguration.load(file: URL(fileURLWithPath: "juice.json"), environment: ProcessInfo.processInfo.environment)
/// let app = try await buildApplication(configuration: configuration)
/// try await app.runService()
/// ```
public struct ServerConfiguration: Sendable {
    /// Client ids, team key and Apple's (or an emulator's) address.
    public var apple: AppleSignInConfiguration
    /// The URL people open: pages, the callback and cookies live under it. `https` makes cookies `Secure`.
    public var publicURL: URL
    /// The address to bind.
    public var host: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    /// Where accounts and sessions are stored.
    public var database: DatabaseLocation
    /// How long a session lasts after sign-in.
    public var sessionLifetime: TimeInterval
    /// How long a sign-in request (`state` and `nonce`) may wait for Apple's answer.
    public var authorizationLifetime: TimeInterval
    /// The server's secret (juice.json `refresh_token_key`, a name kept for existing files): it seals
    /// Apple refresh tokens at rest (AES-256-GCM), and keys derived from it (HKDF, one per purpose) tag
    /// CSRF tokens, native nonces, sign-in flow bindings and callback hand-offs. Every instance of one
    /// deployment must share it.
    public var serverSecret: SymmetricKey
    /// The bcrypt cost of password hashes (4...31; 12 by default).
    public var passwordHashCost: Int
    /// Failed password sign-ins allowed per username and per client address within ``LoginThrottle/Limits/window``.
    public var loginLimits: LoginThrottle.Limits
    /// How often expired sessions and sign-in requests are removed.
    public var purgeInterval: Duration
    /// How often queued revocations are retried (each entry also waits out its own backoff).
    public var revocationRetryInterval: Duration = .seconds(30)
    /// Outgoing mail (welcome, deletion confirmation) through SMTP; `nil` sends none.
    public var mail: MailSettings?
    /// How often the mail outbox looks for mail that is due.
    public var mailDeliveryInterval: Duration = .seconds(10)
    /// The reverse proxies whose `X-Forwarded-For`, `Forwarded` and `X-Forwarded-Proto` are believed.
    public var trustedProxies: TrustedProxies = .none
    /// Whether the native API refuses an identity token without a nonce even when it claims
    /// `nonce_supported: false` (Apple's rule accepts it; the web flows always require one).
    public var requireNonce = false
    /// Sign-up attempts allowed from one client address within ``signUpWindow`` (429 `rate_limited` after).
    public var signUpLimit = 10
    /// The window of ``signUpLimit``.
    public var signUpWindow: TimeInterval = 3600
    /// bcrypt computations that may run at once, half of them at most for new-password hashes
    /// (``BcryptLimiter``); `nil` is one per core.
    public var passwordHashConcurrency: Int?
    /// Password checks that may wait for a bcrypt slot (503 `server_busy` beyond); `nil` is 16 per slot.
    public var passwordHashQueue: Int?
    /// The HTTP idle, header-read and body-read timeouts.
    public var httpTimeouts = HTTPTimeouts()
    /// The passkey relying party id (a domain the public URL's host is, or is under); `nil` is the
    /// public URL's host. Passkeys are bound to it: changing it later strands every registered passkey.
    public var passkeyRelyingPartyID: String?
    /// Origins besides the public URL's that may run passkey ceremonies: native apps, e.g.
    /// `android:apk-key-hash:…` (Apple's apps use the site's own `https` origin).
    public var passkeyOrigins: [String] = []
    /// Origins of other sites (`https://host[:port]`, at most 5) that may run passkey ceremonies for this
    /// RP ID: listed in `/.well-known/webauthn` for browsers (related origin requests), and accepted
    /// as a ceremony's origin (`passkey_related_origins`).
    public var passkeyRelatedOrigins: [String] = []

    /// Creates a configuration from already-validated values.
    public init(
        apple: AppleSignInConfiguration,
        publicURL: URL,
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseLocation,
        serverSecret: SymmetricKey,
        sessionLifetime: TimeInterval = 7 * 86_400,
        authorizationLifetime: TimeInterval = 600,
        passwordHashCost: Int = 12,
        loginLimits: LoginThrottle.Limits = LoginThrottle.Limits(),
        purgeInterval: Duration = .seconds(300)
    ) {
        self.apple = apple
        self.publicURL = publicURL
        self.host = host
        self.port = port
        self.database = database
        self.serverSecret = serverSecret
        self.sessionLifetime = sessionLifetime
        self.authorizationLifetime = authorizationLifetime
        self.passwordHashCost = passwordHashCost
        self.loginLimits = loginLimits
        self.purgeInterval = purgeInterval
    }

    /// The public URL without a trailing slash.
    public var publicBase: String {
        let text = publicURL.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// Where Apple posts the authorization response: the configured `redirect_uri`, or
    /// `{public_url}/auth/apple/callback`.
    public var redirectURI: URL {
        apple.redirectURI ?? URL(string: publicBase + "/auth/apple/callback")!
    }

    /// Whether cookies carry `Secure` (the public URL is https).
    public var usesSecureCookies: Bool {
        publicURL.scheme?.lowercased() == "https"
    }

    /// The public URL's origin (`scheme://host[:port]`), compared with a form post's `Origin` header.
    public var publicOrigin: String {
        publicURL.webOrigin ?? publicBase
    }

    /// The passkey relying party id in force: ``passkeyRelyingPartyID`` or the public URL's host.
    var resolvedPasskeyRelyingPartyID: String {
        passkeyRelyingPartyID ?? publicURL.host?.lowercased() ?? "localhost"
    }

    /// The origins a passkey ceremony may come from: the public URL's; `https://` and the RP ID, which
    /// an Apple app sends for its associated domain (the RP ID is this site's, so its https origin is
    /// too); and ``passkeyOrigins``.
    var passkeyAcceptedOrigins: Set<String> {
        Set([publicOrigin, "https://" + resolvedPasskeyRelyingPartyID] + passkeyOrigins)
    }
}

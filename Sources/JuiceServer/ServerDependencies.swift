import AppleSignIn
import AsyncHTTPClient
import Foundation
import Logging
import WebAuthn

/// Everything the routes use, built once from a configuration. Tests build their own to reach the
/// same stores the running server uses.
struct ServerDependencies: Sendable {
    /// The configuration.
    let configuration: ServerConfiguration
    /// The database.
    let database: any JuiceDatabase
    /// Accounts.
    let accounts: AccountStore
    /// Sessions.
    let sessions: SessionStore
    /// Pending sign-ins and spent codes and nonces.
    let authorizations: AuthorizationStore
    /// Session token minting.
    let sessionTokens: SessionTokens
    /// Password sign-up and sign-in.
    let passwords: PasswordAccounts
    /// Web Sign in with Apple.
    let appleSignIn: AppleWebSignIn
    /// The login page's popup sign-in (Sign in with Apple JS).
    let popupSignIn: ApplePopupSignIn
    /// Apple's REST endpoints.
    let appleClient: AppleIDClient
    /// Apple's signing keys (shared by every verifier).
    let appleKeys: AppleKeySet
    /// Seals refresh tokens.
    let cipher: RefreshTokenCipher
    /// Account deletion.
    let deletion: AccountDeletion
    /// Pages.
    let pages: PageRenderer
    /// Cookies.
    let cookies: SessionCookies
    /// CSRF tokens.
    let csrf: CSRFProtection
    /// The clock.
    let time: TimeSource
    /// Randomness.
    let random: ServerRandom
    /// Native Sign in with Apple (nonces, credential verification).
    let nativeSignIn: AppleNativeSignIn
    /// Notifications, credential states, refresh-token checks, app transfer.
    let lifecycle: AppleLifecycleStore
    /// Verifies Apple's server-to-server notifications (audiences: every client id).
    let notificationVerifier: ServerNotificationVerifier
    /// Revocations owed to Apple, retried until confirmed.
    let revocations: RevocationQueue
    /// The daily refresh-token check.
    let refreshTokenCheck: RefreshTokenRevalidation
    /// The sending team's app-transfer step.
    let appTransfer: AppTransfer
    /// Prometheus metrics (`GET /metrics`).
    let metrics: ServerMetrics
    /// Sends the mail outbox through SMTP; `nil` when the configuration has no `smtp_url`.
    let mailDelivery: MailDelivery?
    /// Passkeys and their challenges.
    let passkeys: PasskeyStore
    /// The passkey registration and authentication ceremonies.
    let passkeyCeremonies: PasskeyCeremonies
    /// Sign-up with a passkey alone.
    let passkeySignUp: PasskeySignUp

    /// Builds the dependencies over an open, migrated database.
    static func make(
        configuration: ServerConfiguration, database: any JuiceDatabase, time: TimeSource, random: ServerRandom, httpClient: HTTPClient,
        logger: Logger, metrics: ServerMetrics = .shared
    ) async throws -> ServerDependencies {
        let mailOutbox = configuration.mail.map { MailOutbox(settings: $0, publicURL: configuration.publicBase, random: random) }
        let accounts = AccountStore(database: database)
        let sessions = SessionStore(database: database)
        let authorizations = AuthorizationStore(database: database)
        let tokens = SessionTokens(lifetime: configuration.sessionLifetime, random: random, time: time)
        let hasher = try await PasswordHasher.make(
            cost: configuration.passwordHashCost,
            limiter: BcryptLimiter(slots: configuration.passwordHashConcurrency, maximumWaiting: configuration.passwordHashQueue), random: random)
        let passwords = PasswordAccounts(
            accounts: accounts, signUpTransaction: PasswordSignUpTransaction(database: database, random: random), hasher: hasher,
            throttle: LoginThrottle(limits: configuration.loginLimits, time: time), tokens: tokens,
            signUps: LoginThrottle(
                limits: .init(perUsername: configuration.signUpLimit, perAddress: configuration.signUpLimit, window: configuration.signUpWindow),
                time: time)
        )
        let keys = AppleKeySet(
            source: TimedAppleKeySource(
                HTTPAppleKeySource(appleBaseURL: configuration.apple.appleBaseURL, httpClient: httpClient, logger: logger), metrics: metrics
            ), time: time,
            logger: logger
        )
        // The web flow accepts only the Services ID: a token minted for the app is not a web sign-in.
        let webVerifier = IdentityTokenVerifier(keys: keys, issuer: configuration.apple.issuer, audiences: [configuration.apple.clientID], time: time)
        let signer = try ClientSecretSigner(configuration: configuration.apple, time: time)
        let client = AppleIDClient(baseURL: configuration.apple.appleBaseURL, signer: signer, httpClient: httpClient, logger: logger)
        let cipher = RefreshTokenCipher(key: configuration.serverSecret)
        let cookies = SessionCookies(secure: configuration.usesSecureCookies, sessionLifetime: configuration.sessionLifetime)
        // The native API accepts every client id: the bundle id (a device) and the Services ID (the relay).
        let nativeVerifier = IdentityTokenVerifier(
            keys: keys, issuer: configuration.apple.issuer, audiences: configuration.apple.clientIDs, time: time)
        let lifecycle = AppleLifecycleStore(database: database)
        // Background calls (revocation, refresh checks) try once, briefly: their own queue and schedule retry,
        // and a deletion does not keep its request waiting on an unreachable Apple.
        let backgroundClient = AppleIDClient(
            baseURL: configuration.apple.appleBaseURL, signer: signer, httpClient: httpClient, timeout: .seconds(5), retrySchedule: .none,
            logger: logger
        )
        let revocations = RevocationQueue(
            store: RevocationStore(database: database), client: backgroundClient, cipher: cipher, time: time, metrics: metrics)
        func pipeline(_ verifier: IdentityTokenVerifier) -> AppleSignInPipeline {
            AppleSignInPipeline(
                verifier: verifier, client: client, cipher: cipher, authorizations: authorizations,
                transaction: AppleSignInTransaction(database: database, random: random, mail: mailOutbox), tokens: tokens,
                configuration: configuration, time: time, metrics: metrics
            )
        }
        let appleSignIn = AppleWebSignIn(
            configuration: configuration, pipeline: pipeline(webVerifier), authorizations: authorizations, random: random, time: time,
            binding: FlowBinding(
                secure: configuration.usesSecureCookies, lifetime: configuration.authorizationLifetime, random: random,
                secret: configuration.serverSecret),
            handoff: CallbackHandoff(secret: configuration.serverSecret), metrics: metrics.signIns
        )
        let passkeys = PasskeyStore(database: database)
        let passkeyCeremonies = PasskeyCeremonies(
            relyingParty: PasskeyRelyingParty(
                id: configuration.resolvedPasskeyRelyingPartyID, origins: configuration.passkeyAcceptedOrigins,
                relatedOrigins: try RelatedOrigins(configuration.passkeyRelatedOrigins),
                requirements: PasskeyRequirements()),
            relyingPartyName: configuration.resolvedPasskeyRelyingPartyID, store: passkeys,
            signIns: PasskeySignInTransaction(database: database), authorizations: authorizations,
            signInChallenges: MintedValues(
                secret: configuration.serverSecret, purpose: "juice passkey sign-in challenge v1", lifetime: configuration.authorizationLifetime,
                random: random, time: time),
            tokens: tokens, time: time, random: random, metrics: metrics.signIns)
        return ServerDependencies(
            configuration: configuration,
            database: database,
            accounts: accounts,
            sessions: sessions,
            authorizations: authorizations,
            sessionTokens: tokens,
            passwords: passwords,
            appleSignIn: appleSignIn,
            popupSignIn: ApplePopupSignIn(web: appleSignIn),
            appleClient: client,
            appleKeys: keys,
            cipher: cipher,
            deletion: AccountDeletion(
                transaction: AccountDeletionTransaction(database: database, random: random, mail: mailOutbox), revocations: revocations, time: time),
            pages: try PageRenderer(),
            cookies: cookies,
            csrf: CSRFProtection(
                cookies: cookies, random: random, origin: configuration.publicOrigin, key: CSRFProtection.key(from: configuration.serverSecret)
            ),
            time: time,
            random: random,
            nativeSignIn: AppleNativeSignIn(
                configuration: configuration, pipeline: pipeline(nativeVerifier),
                nonces: NativeNonces(
                    secret: configuration.serverSecret, lifetime: configuration.authorizationLifetime, random: random, time: time),
                time: time, metrics: metrics.signIns
            ),
            lifecycle: lifecycle,
            notificationVerifier: ServerNotificationVerifier(
                keys: keys, issuer: configuration.apple.issuer, audiences: configuration.apple.clientIDs, time: time
            ),
            revocations: revocations,
            refreshTokenCheck: RefreshTokenRevalidation(store: lifecycle, client: backgroundClient, cipher: cipher, time: time),
            appTransfer: AppTransfer(store: lifecycle, client: client, time: time),
            metrics: metrics,
            mailDelivery: configuration.mail.map {
                MailDelivery(database: database, settings: $0, heloName: configuration.publicURL.host ?? "localhost", time: time, metrics: metrics)
            },
            passkeys: passkeys,
            passkeyCeremonies: passkeyCeremonies,
            passkeySignUp: PasskeySignUp(
                ceremonies: passkeyCeremonies, accounts: accounts,
                challenges: PasskeySignUpChallenges(
                    values: MintedValues(
                        secret: configuration.serverSecret, purpose: "juice passkey sign-up challenge v1",
                        lifetime: configuration.authorizationLifetime, random: random, time: time)),
                transaction: PasskeySignUpTransaction(database: database), signUps: passwords.signUps)
        )
    }
}

import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import JuiceEncodings

/// One Apple sign-in, whatever brought it (the web callback, the native API, the JS popup):
/// verify the identity token → spend the code (and a native nonce) → redeem the code → record the
/// Apple identity → start the session. Each entry point only adapts its input (where the nonce comes from, which account
/// to link) and its response.
///
/// An entry point gets a pipeline with the verifier of its audiences: the web flow accepts only the
/// Services ID, the native API every configured client id.
struct AppleSignInPipeline: Sendable {
    /// What an entry point hands over once it has its own checks behind it.
    struct Attempt: Sendable {
        /// The identity token as Apple sent it.
        var identityToken: String
        /// The authorization code that came with it (a native client may send none).
        var authorizationCode: String?
        /// The nonce the token must carry: the web flow's stored nonce, or the SHA-256 hex of a
        /// native client's raw nonce.
        var expectedNonce: String
        /// The ``NativeNonces/spentValueID(nonceHash:)`` of a native nonce, spent in the same statement as the code
        /// (or alone when there is no code, or when the token is refused); `nil` on the web, whose
        /// nonce was spent with its `state`.
        var nonceSpentValueID: String?
        /// Whether a token that says `nonce_supported: false` is refused all the same (the web always
        /// supports nonces; only a native client may claim it cannot carry one).
        var requiresNonce: Bool
        /// The once-only name from Apple's `user` (or a device's `fullName`).
        var givenName: String?
        /// Family name, likewise.
        var familyName: String?
        /// The account the Apple ID is linked to (the one signed in when the sign-in started).
        var linkAccountID: String?
        /// The session ended once the new one starts.
        var replacesSessionID: String?
    }

    private let verifier: IdentityTokenVerifier
    private let authorizations: AuthorizationStore
    private let redemption: AppleCodeRedemption
    private let transaction: AppleSignInTransaction
    private let tokens: SessionTokens
    private let configuration: ServerConfiguration
    private let time: TimeSource
    private let metrics: ServerMetrics?

    /// Creates the pipeline of one entry point.
    /// - Parameters:
    ///   - verifier: Accepts the entry point's audiences.
    ///   - metrics: Receives refused tokens by error code and the code exchange's latency.
    init(
        verifier: IdentityTokenVerifier, client: AppleIDClient, cipher: RefreshTokenCipher, authorizations: AuthorizationStore,
        transaction: AppleSignInTransaction, tokens: SessionTokens, configuration: ServerConfiguration, time: TimeSource, metrics: ServerMetrics?
    ) {
        self.verifier = verifier
        self.authorizations = authorizations
        self.redemption = AppleCodeRedemption(verifier: verifier, client: client, cipher: cipher, time: time, metrics: metrics)
        self.transaction = transaction
        self.tokens = tokens
        self.configuration = configuration
        self.time = time
        self.metrics = metrics
    }

    /// Signs in: the new session's token and the account.
    /// - Throws: ``ServerError`` (`invalid_nonce`, `invalid_identity_token`, `invalid_code`,
    ///   `apple_id_in_use`, 503 when Apple is unreachable) or a storage error.
    func signIn(_ attempt: Attempt) async throws -> (sessionToken: String, result: AppleSignInResult) {
        let verified: IdentityToken
        do {
            verified = try await verifier.verify(
                attempt.identityToken, nonceClaim: attempt.expectedNonce, authorizationCode: attempt.authorizationCode,
                requiresNonce: attempt.requiresNonce)
        } catch {
            metrics?.identityTokenRefused(code: error.code.description)
            // A nonce is spent whether or not the token it came with passes; a nonce spent before
            // is what the caller hears about first.
            try await spend(nonceSpentValueID: attempt.nonceSpentValueID, code: nil)
            throw ServerError(error)
        }
        try await spend(nonceSpentValueID: attempt.nonceSpentValueID, code: attempt.authorizationCode)
        var sealed: String?
        if let code = attempt.authorizationCode {
            // A code minted for the Services ID (web, loopback bridge, popup) was issued for the callback URI;
            // a device's code has none.
            let redirectURI = verified.audience == configuration.apple.clientID ? configuration.redirectURI : nil
            sealed = try await redemption.redeem(code, for: verified, redirectURI: redirectURI)
        }
        let record = AppleSignInRecord(
            subject: verified.subject,
            clientID: verified.audience,
            email: verified.email,
            isPrivateEmail: verified.email == nil ? nil : verified.isRelayEmail,
            realUserStatus: verified.realUserStatus,
            givenName: Self.clean(attempt.givenName),
            familyName: Self.clean(attempt.familyName),
            sealedRefreshToken: sealed,
            at: time.now,
            transferSubject: verified.transferSubject
        )
        let (sessionToken, draft) = tokens.issue(.apple)
        let result = try await transaction.run(
            record, linkTo: attempt.linkAccountID, replacingSession: attempt.replacesSessionID, session: draft)
        return (sessionToken, result)
    }

    /// Spends a native nonce and a code in one statement (either may be absent); the code only once the
    /// token vouched for it, so nobody can spend someone else's code with a token of their own.
    private func spend(nonceSpentValueID: String?, code: String?) async throws {
        let codeSpentValueID = code.map(sha256Hex)
        let fresh = try await authorizations.spend([nonceSpentValueID, codeSpentValueID].compactMap { $0 }, at: time.now)
        if let nonceSpentValueID, !fresh.contains(nonceSpentValueID) { throw Self.nonceSpent }
        if let codeSpentValueID, !fresh.contains(codeSpentValueID) {
            throw ServerError(.invalidCode, status: .badRequest, "this authorization code was already used")
        }
    }

    private static let nonceSpent = ServerError(.invalidNonce, status: .badRequest, "this nonce was already used; request a new one")

    /// A name part as stored: ``StoredTextRule/sanitized(_:)`` by ``StoredTextRule/name``, trimmed, `nil` when empty.
    static func clean(_ value: String?) -> String? {
        // Apple's own data, sent once: kept, not refused (a refusal would lose the name for good and fail
        // the sign-in), with control characters removed and cut to 64 Unicode scalars and 256 bytes.
        guard let value = value.map(StoredTextRule.name.sanitized)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty
        else { return nil }
        return value
    }
}

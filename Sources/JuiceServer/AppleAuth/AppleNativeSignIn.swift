import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import Logging

/// Native Sign in with Apple (what the Juice iOS app does), without HTTP.
///
/// 1. ``issueNonce()`` stores a fresh single-use nonce (10 minutes) and returns it; the client sends
///    its SHA-256 hex to Apple as the request's nonce.
/// 2. ``signIn(_:linkTo:replacingSession:)`` consumes that nonce atomically, verifies the identity
///    token (issuer, audience = any configured client id, expiry, nonce = SHA-256 hex of the raw
///    nonce, `c_hash` when a code is given), exchanges the code (with the bundle id and no
///    `redirect_uri`; for a token minted for the Services ID through the relay, with the callback
///    URI), and finds or creates the account, keeping the name from `fullName` once.
///
/// ```swift
/// let nonce = try await native.issueNonce()
/// // … the app signs in with SHA256(nonce) as the request nonce, then:
/// let (token, result) = try await native.signIn(.init(identityToken: idToken, authorizationCode: code, nonce: nonce))
/// ```
public struct AppleNativeSignIn: Sendable {
    /// What the client sends: its Apple ID credential and the raw nonce.
    public struct Credential: Sendable, Hashable {
        /// The credential's `identityToken`.
        public var identityToken: String
        /// The credential's `authorizationCode`, if the client sends it.
        public var authorizationCode: String?
        /// The raw nonce from ``AppleNativeSignIn/issueNonce()``.
        public var nonce: String
        /// The credential's `fullName` (sent by Apple on the first authorization only).
        public var givenName: String?
        /// Family name, likewise.
        public var familyName: String?

        public init(identityToken: String, authorizationCode: String? = nil, nonce: String, givenName: String? = nil, familyName: String? = nil) {
            self.identityToken = identityToken
            self.authorizationCode = authorizationCode
            self.nonce = nonce
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    private let configuration: ServerConfiguration
    private let verifier: IdentityTokenVerifier
    private let client: AppleIDClient
    private let cipher: RefreshTokenCipher
    private let nonces: any NonceStore
    private let authorizations: any AuthorizationStore
    private let accounts: any AccountRepository
    private let tokens: SessionTokens
    private let random: ServerRandom
    private let time: TimeSource
    private let metrics: SignInMetrics
    private let serverMetrics: ServerMetrics?
    private let redemption: AppleCodeRedemption

    /// Creates the flow. `verifier` should accept every configured client id.
    public init(
        configuration: ServerConfiguration, verifier: IdentityTokenVerifier, client: AppleIDClient, cipher: RefreshTokenCipher,
        nonces: any NonceStore, authorizations: any AuthorizationStore, accounts: any AccountRepository, tokens: SessionTokens,
        random: ServerRandom, time: TimeSource, metrics: SignInMetrics = SignInMetrics(), serverMetrics: ServerMetrics? = nil
    ) {
        self.configuration = configuration
        self.verifier = verifier
        self.client = client
        self.cipher = cipher
        self.nonces = nonces
        self.authorizations = authorizations
        self.accounts = accounts
        self.tokens = tokens
        self.random = random
        self.time = time
        self.metrics = metrics
        self.serverMetrics = serverMetrics
        self.redemption = AppleCodeRedemption(
            verifier: verifier, client: client, cipher: cipher, authorizations: authorizations, time: time, metrics: serverMetrics)
    }

    /// A new single-use nonce (32 random bytes, base64url), valid for the authorization lifetime.
    public func issueNonce() async throws -> String {
        let nonce = random.token()
        let now = Date(timeIntervalSince1970: time.now.timeIntervalSince1970.rounded(.down))
        try await nonces.save(hash: SHA256.hex(nonce), createdAt: now, expiresAt: now.addingTimeInterval(configuration.authorizationLifetime))
        return nonce
    }

    /// Verifies a native credential and signs in.
    /// - Parameters:
    ///   - credential: What the client sent.
    ///   - linkTo: The account signed in with the request's session, if any (the Apple ID is linked to it).
    ///   - replacingSession: That session, ended once the new one starts.
    /// - Returns: The new session's token and the account.
    /// - Throws: ``ServerError`` (`invalid_nonce`, `invalid_identity_token`, `invalid_code`, 503 when Apple is unreachable).
    public func signIn(
        _ credential: Credential, linkTo: String? = nil, replacingSession: String? = nil
    ) async throws -> (token: String, result: AppleSignInResult) {
        do {
            let outcome = try await run(credential, linkTo: linkTo, replacingSession: replacingSession)
            metrics.record(.apple, outcome: "success")
            return outcome
        } catch let error as ServerError {
            metrics.record(.apple, outcome: error.code.rawValue)
            throw error
        }
    }

    private func run(_ credential: Credential, linkTo: String?, replacingSession: String?) async throws -> (token: String, result: AppleSignInResult)
    {
        guard !credential.identityToken.isEmpty, credential.identityToken.utf8.count <= 16 * 1024 else {
            throw ServerError.invalidRequest("identityToken is required (at most 16 KiB)")
        }
        guard !credential.nonce.isEmpty, credential.nonce.utf8.count <= 512 else { throw ServerError.invalidRequest("nonce is required") }
        if let code = credential.authorizationCode, code.isEmpty || code.utf8.count > 1024 {
            throw ServerError.invalidRequest("authorizationCode is empty or too long")
        }
        // Consumed first: a nonce is spent whether or not the token it came with passes.
        guard try await nonces.consume(hash: SHA256.hex(credential.nonce), now: time.now) else {
            throw ServerError(.invalidNonce, status: .badRequest, "this nonce is unknown, expired or already used; request a new one")
        }
        let token: IdentityToken
        do {
            token = try await verifier.verify(
                credential.identityToken, nonce: SHA256.hex(credential.nonce), authorizationCode: credential.authorizationCode
            )
        } catch {
            serverMetrics?.identityTokenRefused(code: error.code.rawValue)
            throw AppleWebSignIn.serverError(error)
        }
        var sealed: String?
        if let code = credential.authorizationCode {
            // A device's code has no redirect URI; a relayed web code was issued for the callback.
            let redirectURI = token.audience == configuration.apple.clientID ? configuration.redirectURI : nil
            sealed = try await redemption.redeem(code, for: token, redirectURI: redirectURI)
        }
        let record = AppleSignInRecord(
            subject: token.subject,
            clientID: token.audience,
            email: token.email,
            isPrivateEmail: token.email == nil ? nil : token.isRelayEmail,
            realUserStatus: token.realUserStatus,
            givenName: Self.clean(credential.givenName),
            familyName: Self.clean(credential.familyName),
            sealedRefreshToken: sealed,
            at: time.now,
            transferSubject: token.transferSubject
        )
        let (sessionToken, draft) = tokens.issue(.apple)
        let result = try await accounts.completeAppleSignIn(record, linkTo: linkTo, replacingSession: replacingSession, session: draft)
        return (sessionToken, result)
    }

    /// A name part as stored: trimmed, at most 64 characters, `nil` when empty.
    static func clean(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return String(value.prefix(64))
    }
}

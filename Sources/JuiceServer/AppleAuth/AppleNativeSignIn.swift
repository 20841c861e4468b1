import AppleSignIn
import Crypto
import Foundation
import Hummingbird

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
struct AppleNativeSignIn: Sendable {
    /// What the client sends: its Apple ID credential and the raw nonce.
    struct Credential: Sendable, Hashable {
        /// The credential's `identityToken`.
        var identityToken: String
        /// The credential's `authorizationCode`, if the client sends it.
        var authorizationCode: String?
        /// The raw nonce from ``AppleNativeSignIn/issueNonce()``.
        var nonce: String
        /// The credential's `fullName` (sent by Apple on the first authorization only).
        var givenName: String?
        /// Family name, likewise.
        var familyName: String?

        init(identityToken: String, authorizationCode: String? = nil, nonce: String, givenName: String? = nil, familyName: String? = nil) {
            self.identityToken = identityToken
            self.authorizationCode = authorizationCode
            self.nonce = nonce
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    private let configuration: ServerConfiguration
    private let pipeline: AppleSignInPipeline
    private let nonces: any NonceStore
    private let random: ServerRandom
    private let time: TimeSource
    private let metrics: SignInMetrics

    /// Creates the flow. `pipeline` should accept every configured client id.
    init(
        configuration: ServerConfiguration, pipeline: AppleSignInPipeline, nonces: any NonceStore, random: ServerRandom, time: TimeSource,
        metrics: SignInMetrics = SignInMetrics()
    ) {
        self.configuration = configuration
        self.pipeline = pipeline
        self.nonces = nonces
        self.random = random
        self.time = time
        self.metrics = metrics
    }

    /// A new single-use nonce (32 random bytes, base64url), valid for the authorization lifetime.
    func issueNonce() async throws -> String {
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
    func signIn(
        _ credential: Credential, linkTo: String? = nil, replacingSession: String? = nil
    ) async throws -> (token: String, result: AppleSignInResult) {
        do {
            let outcome = try await run(credential, linkTo: linkTo, replacingSession: replacingSession)
            metrics.record(.apple, outcome: "success")
            return outcome
        } catch let error as any ServerErrorConvertible {
            metrics.record(.apple, outcome: error.serverError.code.rawValue)
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
        let nonceHash = SHA256.hex(credential.nonce)
        guard try await nonces.consume(hash: nonceHash, now: time.now) else {
            throw ServerError(.invalidNonce, status: .badRequest, "this nonce is unknown, expired or already used; request a new one")
        }
        return try await pipeline.signIn(
            .init(
                identityToken: credential.identityToken, authorizationCode: credential.authorizationCode, nonce: nonceHash,
                requiresNonce: configuration.requireNonce,
                givenName: credential.givenName, familyName: credential.familyName, linkAccountID: linkTo, replacesSessionID: replacingSession
            )
        )
    }
}

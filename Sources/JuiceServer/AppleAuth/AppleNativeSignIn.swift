import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import JuiceEncodings

/// Native Sign in with Apple (what the Juice iOS app does), without HTTP.
///
/// 1. ``issueNonce()`` returns a fresh single-use nonce (10 minutes), tagged by the server and stored
///    nowhere (``NativeNonces``); the client sends its SHA-256 hex to Apple as the request's nonce.
/// 2. ``signIn(_:linkTo:replacingSession:)`` checks the nonce's tag and expiry, verifies the identity
///    token (issuer, audience = any configured client id, expiry, nonce = SHA-256 hex of the raw
///    nonce, `c_hash` when a code is given), spends the nonce and the code in one statement (each
///    works once), exchanges the code (with the bundle id and no
///    `redirect_uri`; for a token minted for the Services ID through the relay, with the callback
///    URI), and finds or creates the account, keeping the name from `fullName` once.
///
/// ```swift
/// let nonce = native.issueNonce()
/// // … the app signs in with SHA256(nonce) as the request nonce, then:
/// let (sessionToken, result) = try await native.signIn(.init(identityToken: idToken, authorizationCode: code, rawNonce: nonce))
/// ```
struct AppleNativeSignIn: Sendable {
    /// What the client sends: its Apple ID credential and the raw nonce.
    struct Credential: Sendable, Hashable {
        /// The credential's `identityToken`.
        var identityToken: String
        /// The credential's `authorizationCode`: required (a missing one is refused with `invalid_request`).
        var authorizationCode: String?
        /// The raw nonce from ``AppleNativeSignIn/issueNonce()`` (its SHA-256 hex went to Apple).
        var rawNonce: String
        /// The credential's `fullName` (sent by Apple on the first authorization only).
        var givenName: String?
        /// Family name, likewise.
        var familyName: String?
    }

    let configuration: ServerConfiguration
    /// Verifies, redeems and records; it should accept every configured client id.
    let pipeline: AppleSignInPipeline
    let nonces: NativeNonces
    let time: TimeSource
    var metrics = SignInMetrics()

    /// A new single-use nonce, valid for the authorization lifetime (see ``NativeNonces``).
    func issueNonce() -> String {
        nonces.issue()
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
    ) async throws -> (sessionToken: String, result: AppleSignInResult) {
        do {
            let outcome = try await run(credential, linkTo: linkTo, replacingSession: replacingSession)
            metrics.record(.apple, outcome: "success")
            return outcome
        } catch let error as any ServerErrorConvertible {
            metrics.record(.apple, outcome: error.serverError.code.rawValue)
            throw error
        }
    }

    private func run(
        _ credential: Credential, linkTo: String?, replacingSession: String?
    ) async throws -> (sessionToken: String, result: AppleSignInResult) {
        guard !credential.identityToken.isEmpty, credential.identityToken.utf8.count <= 16 * 1024 else {
            throw ServerError.invalidRequest("identityToken is required (at most 16 KiB)")
        }
        guard !credential.rawNonce.isEmpty, credential.rawNonce.utf8.count <= 512 else { throw ServerError.invalidRequest("nonce is required") }
        // The code is what Apple vouches for this sign-in with (and what yields the refresh token to
        // revoke): an identity token alone, captured from any other sign-in of the app, is not enough.
        guard let code = credential.authorizationCode, !code.isEmpty, code.utf8.count <= 1024 else {
            throw ServerError.invalidRequest("authorizationCode is required (at most 1024 bytes)")
        }
        // Checked first, without the database: only a nonce this server issued and that has not
        // expired goes on. The pipeline spends it, with the code, once the token is verified.
        guard nonces.isValid(rawNonce: credential.rawNonce) else {
            throw ServerError(.invalidNonce, status: .badRequest, "this nonce was not issued by this server or has expired; request a new one")
        }
        let nonceHash = sha256Hex(credential.rawNonce)
        return try await pipeline.signIn(
            .init(
                identityToken: credential.identityToken, authorizationCode: credential.authorizationCode, expectedNonce: nonceHash,
                nonceSpentValueID: NativeNonces.spentValueID(nonceHash: nonceHash), requiresNonce: configuration.requireNonce,
                givenName: credential.givenName, familyName: credential.familyName, linkAccountID: linkTo, replacesSessionID: replacingSession
            )
        )
    }
}

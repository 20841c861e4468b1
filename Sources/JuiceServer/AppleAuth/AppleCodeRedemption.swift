import AppleSignIn
import Foundation
import Hummingbird
import JuiceEncodings

/// Redeems an authorization code for the user a verified identity token names, for the web callback
/// and the native API alike: exchanges it at Apple (timed in `/metrics`), checks that Apple's token
/// response is for the same user, and seals the refresh token for storage. The code has been spent
/// first (``AppleSignInPipeline``), so it is exchanged once across instances.
struct AppleCodeRedemption: Sendable {
    let verifier: IdentityTokenVerifier
    let client: AppleIDClient
    let cipher: RefreshTokenCipher
    let time: TimeSource
    let metrics: ServerMetrics?

    /// The sealed refresh token (`nil` when Apple sent none).
    ///
    /// - Parameters:
    ///   - code: The authorization code that came with `token`, spent already.
    ///   - token: The verified identity token; the code is exchanged with its audience as client id.
    ///   - redirectURI: The redirect URI the code was issued for (`nil` for a device's code).
    func redeem(_ code: String, for token: IdentityToken, redirectURI: URL?) async throws -> String? {
        let client = client
        let exchange = { () async throws(AppleIDClientError) -> TokenResponse in
            try await client.exchangeCode(code, clientID: token.audience, redirectURI: redirectURI)
        }
        let response: TokenResponse
        do {
            if let metrics {
                response = try await metrics.timingAppleCall(endpoint: "token", errorCode: { $0.code.description }, exchange)
            } else {
                response = try await exchange()
            }
        } catch {
            throw ServerError(error)
        }
        if let idToken = response.idToken {
            let confirmed: IdentityToken
            do {
                confirmed = try await verifier.verify(idToken)
            } catch {
                metrics?.identityTokenRefused(code: error.code.description)
                throw ServerError(error)
            }
            guard confirmed.subject == token.subject else {
                throw ServerError(.invalidIdentityToken, status: .badRequest, "Apple's token response is for another user")
            }
        }
        return try response.refreshToken.map { try cipher.seal($0, subject: token.subject) }
    }
}

import Hummingbird

/// `/.well-known/openid-configuration` and `/auth/keys`.
struct DiscoveryController: Sendable {
    let keys: SigningKeyRing
    let address: EmulatorAddress
    /// Injected failures of `/auth/keys` (`keys_server_error`, `keys_delay`).
    let keyFailure: KeyEndpointFailure
    /// The issuer discovery names under `issuer_drift`.
    let drift: IssuerDrift

    struct Metadata: Encodable {
        let issuer: String
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let revocationEndpoint: String
        let jwksURI: String
        let responseTypesSupported = ["code"]
        let responseModesSupported = ["query", "fragment", "form_post"]
        let subjectTypesSupported = ["pairwise"]
        let idTokenSigningAlgValuesSupported = ["RS256"]
        let scopesSupported = ["openid", "email", "name"]
        let tokenEndpointAuthMethodsSupported = ["client_secret_post"]
        let claimsSupported = [
            "aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce", "nonce_supported",
            "real_user_status", "sub", "transfer_sub",
        ]

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case revocationEndpoint = "revocation_endpoint"
            case jwksURI = "jwks_uri"
            case responseTypesSupported = "response_types_supported"
            case responseModesSupported = "response_modes_supported"
            case subjectTypesSupported = "subject_types_supported"
            case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
            case scopesSupported = "scopes_supported"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
            case claimsSupported = "claims_supported"
        }
    }

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.get("/.well-known/openid-configuration") { _, context in
            await HTTPExchange.answering(context) {
                let base = address.baseURL
                return HTTPExchange.json(
                    Metadata(
                        issuer: drift.issuer(otherwise: address.issuer),
                        authorizationEndpoint: base + "/auth/authorize",
                        tokenEndpoint: base + "/auth/token",
                        revocationEndpoint: base + "/auth/revoke",
                        jwksURI: base + "/auth/keys"
                    )
                )
            }
        }
        router.get("/auth/keys") { _, context in
            await HTTPExchange.answering(context) {
                if let injected = try await keyFailure.response() { return injected }
                var response = HTTPExchange.json(["keys": try await keys.publishedKeys()])
                response.headers[.cacheControl] = "public, max-age=60"
                return response
            }
        }
        return router
    }
}

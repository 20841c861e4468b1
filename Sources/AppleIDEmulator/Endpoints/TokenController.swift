import Hummingbird

/// `POST /auth/token`.
struct TokenController: Sendable {
    let validator: ClientSecretValidator
    let service: TokenService
    /// Injected failures of `/auth/token` (the fixture API's `token_…` kinds), consulted before the request is checked.
    let failure: TokenEndpointFailure

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.post("/auth/token") { request, context in
            await HTTPExchange.answering(context) {
                let form = try await HTTPExchange.form(request)
                if let injected = try await failure.response(clientID: form["client_id"]) { return injected }
                guard let grantType = form.nonEmpty("grant_type") else { throw OAuthError.invalidRequest("grant_type is required") }
                let isMigration = grantType == "client_credentials"
                let (client, teamID) = try await validator.validate(
                    secret: form["client_secret"], clientID: form["client_id"], allowPreviousTeam: isMigration
                )
                let body: TokenResponseBody
                switch grantType {
                case "authorization_code":
                    body = try await service.exchangeCode(form["code"], redirectURI: form["redirect_uri"], client: client)
                case "refresh_token":
                    body = try await service.refresh(form["refresh_token"], client: client)
                case "client_credentials":
                    body = try await service.migrationToken(scope: form["scope"], client: client, teamID: teamID)
                default:
                    throw OAuthError.unsupportedGrantType("grant_type must be authorization_code, refresh_token or client_credentials")
                }
                return HTTPExchange.json(body)
            }
        }
        return router
    }
}

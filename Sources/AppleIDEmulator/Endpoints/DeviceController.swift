import Hummingbird

/// `POST /emulator/device/authorize`: stands in for the sheet an iPhone shows, returning what
/// `ASAuthorizationAppleIDCredential` carries.
struct DeviceController: Sendable {
    let directory: ClientDirectory
    let accounts: AppleIDDirectory
    let authorizer: Authorizer
    let policy: OrganizationPolicy

    struct DeviceCredential: Encodable {
        struct FullName: Encodable {
            let givenName: String
            let familyName: String
        }

        let user: String
        let state: String?
        let identityToken: String
        let authorizationCode: String
        let email: String?
        let fullName: FullName?
        let realUserStatus: Int
        let authorizedScopes: [String]
    }

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.post("/emulator/device/authorize") { request, context in
            await HTTPExchange.answering(context) {
                let form = try await HTTPExchange.form(request)
                guard let clientID = form.nonEmpty("client_id") else { throw OAuthError.invalidRequest("client_id is required") }
                guard let client = try await directory.client(clientID), client.kind == .app else {
                    throw OAuthError.invalidClient("client_id must be the bundle id of a registered app")
                }
                let scopes = try AuthorizationScopes.parse(form["scope"])
                let consent = ConsentChoices(
                    firstName: try AuthorizationScopes.name(form["first_name"], field: "first_name"),
                    lastName: try AuthorizationScopes.name(form["last_name"], field: "last_name"),
                    emailChoice: try AuthorizationScopes.emailChoice(form["email_choice"])
                )
                if form["action"] == "cancel" {
                    throw OAuthError(code: "user_cancelled_authorize", description: "the person cancelled")
                }
                guard let accountName = form.nonEmpty("account_name"), let password = form.nonEmpty("password"),
                    let account = try await accounts.authenticate(accountName: accountName, password: password)
                else {
                    throw OAuthError(code: "invalid_credentials", description: "the Apple ID or password is incorrect", status: .unauthorized)
                }
                if account.managed != nil, try await policy.isBlocked(email: account.storageKey, bundleID: client.bundleID) {
                    throw OAuthError(code: "access_denied", description: "the person's organization blocks this app", status: .forbidden)
                }
                let outcome = try await authorizer.authorize(
                    client: client, account: account, scopes: scopes, nonce: form.nonEmpty("nonce"), redirectURI: nil,
                    consent: consent, device: true, includeIDToken: true
                )
                let user = outcome.firstAuthorization ? outcome.userInfo : nil
                return HTTPExchange.json(
                    DeviceCredential(
                        user: outcome.subject.teamUser.subject,
                        state: form["state"],
                        identityToken: outcome.idToken ?? "",
                        authorizationCode: outcome.code,
                        email: user?.email,
                        fullName: user?.name.map { DeviceCredential.FullName(givenName: $0.firstName, familyName: $0.lastName) },
                        realUserStatus: 2,
                        authorizedScopes: scopes
                    )
                )
            }
        }
        return router
    }
}

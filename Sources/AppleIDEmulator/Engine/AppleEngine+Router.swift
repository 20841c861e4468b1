import Hummingbird

extension AppleEngine {
    /// Apple's endpoints and pages, the account portal and the fixture API (when `adminToken` is set),
    /// with request logging and request capture.
    package func router() throws -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: RequestCaptureMiddleware(capture: capture, time: time))
        router.addRoutes(
            DiscoveryController(
                keys: keys, address: address, keyFailure: KeyEndpointFailure(failures: failures, sleep: sleep), drift: IssuerDrift(failures: failures)
            ).endpoints)
        router.addRoutes(AppleIDScriptController().endpoints)
        router.addRoutes(
            TokenController(
                validator: validator,
                service: TokenService(store: store, random: random, time: time, tokens: tokens, relayDomain: options.relayDomain),
                failure: TokenEndpointFailure(failures: failures, sleep: sleep)
            ).endpoints)
        router.addRoutes(RevocationController(validator: validator, store: store, time: time).endpoints)
        router.addRoutes(
            MigrationController(
                validator: validator, directory: directory, store: store, random: random, time: time, relayDomain: options.relayDomain
            ).endpoints)
        let policy = OrganizationPolicy(store: store)
        router.addRoutes(DeviceController(directory: directory, accounts: accounts, authorizer: authorizer, policy: policy).endpoints)
        let sessions = BrowserSessionStore(store: store, random: random, time: time)
        let pages = try EmulatorPageRenderer()
        router.addRoutes(
            AuthorizeController(directory: directory, accounts: accounts, authorizer: authorizer, sessions: sessions, pages: pages, policy: policy)
                .endpoints)
        router.addRoutes(RootPageController(pages: pages, address: address, relayDomain: options.relayDomain).endpoints)
        let inbox = MailInbox(store: store)
        let actions = AccountActions(store: store, directory: directory, accounts: accounts, random: random, time: time)
        router.addRoutes(
            AccountPortalController(accounts: accounts, actions: actions, sessions: sessions, pages: pages, inbox: inbox, policy: policy).endpoints)
        router.addRoutes(
            AdminController(
                adminToken: configuration.adminToken, address: address, actions: actions, keys: keys, inbox: inbox, policy: policy,
                fixtures: FixtureController(fixtures: fixtures),
                failures: FailureController(failures: failures, keys: keys, directory: directory),
                requests: RequestCaptureController(capture: capture, pages: pages)
            ).endpoints
        )
        return router
    }

    /// The fixture API's actions on this engine (reset, seed, clock, issued credentials).
    var fixtures: FixtureActions {
        FixtureActions(live: live, store: store, directory: directory, accounts: accounts, clock: clock, failures: failures, capture: capture)
    }
}

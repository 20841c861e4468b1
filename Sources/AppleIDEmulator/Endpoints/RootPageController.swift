import Hummingbird
import JuiceInfrastructure

/// `GET /`: the emulator's home page (what it is, its endpoints, links to the Apple ID portal and the
/// inbox of mail forwarded by Hide My Email), in English or Simplified Chinese by `Accept-Language`.
struct RootPageController: Sendable {
    let pages: EmulatorPageRenderer
    let address: EmulatorAddress
    let relayDomain: RelayDomain

    /// Each endpoint and the key of the string that says what it is for.
    static let endpoints: [(path: String, purpose: String)] = [
        ("GET /.well-known/openid-configuration", "root_discovery"),
        ("GET /auth/keys", "root_keys"),
        ("GET|POST /auth/authorize", "root_authorize"),
        ("POST /auth/token", "root_token"),
        ("POST /auth/revoke", "root_revoke"),
        ("POST /auth/usermigrationinfo", "root_migration"),
        ("GET /appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js", "root_script"),
        ("POST /emulator/device/authorize", "root_device"),
        ("/account", "root_portal_endpoint"),
        ("/emulator/admin/…", "root_admin"),
    ]

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.get("/") { request, _ in
            let language = request.language
            let values: [String: Any] = [
                "issuer": address.issuer,
                "relay_domain": relayDomain.rawValue,
                "endpoints": Self.endpoints.map { ["path": $0.path, "purpose": EmulatorPageRenderer.string($0.purpose, language)] },
            ]
            let body = pages.render("root", language: language, title: EmulatorPageRenderer.string("root_title", language), values: values)
            return HTTPExchange.html(body, language: language)
        }
        return router
    }
}

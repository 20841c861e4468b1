import AppleSignIn
import Foundation
import Hummingbird

/// What iOS and password managers look for at the site's root:
///
/// - `GET /.well-known/apple-app-site-association`: `{"webcredentials": {"apps": ["TEAMID.BUNDLEID", …]}}`
///   for Password AutoFill (`ASAuthorizationPasswordProvider`), served directly as `application/json`
///   (no redirect, no `.json` suffix, as Apple's CDN fetches it). The apps are the team id joined to
///   every additional client id (the app bundle ids; the primary client id is the web Services ID).
/// - `GET /.well-known/change-password`: a redirect to the change-password page.
struct WellKnownController: Sendable {
    /// The associated-domains document.
    struct AppSiteAssociation: Encodable, Sendable {
        struct WebCredentials: Encodable, Sendable {
            var apps: [String]
        }
        var webcredentials: WebCredentials
    }

    let apps: [String]

    init(configuration: ServerConfiguration) {
        let team = configuration.apple.teamID
        let clientID = configuration.apple.clientID
        self.apps = configuration.apple.clientIDs.filter { $0 != clientID }.map { "\(team).\($0)" }
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let document = (try? encoder.encode(AppSiteAssociation(webcredentials: .init(apps: apps)))) ?? Data(#"{"webcredentials":{"apps":[]}}"#.utf8)
        routes.get("/.well-known/apple-app-site-association") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
        routes.get("/.well-known/change-password") { _, _ in
            Response.seeOther("/account/password")
        }
        return routes
    }
}

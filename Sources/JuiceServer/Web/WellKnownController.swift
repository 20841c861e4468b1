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
/// - `GET /.well-known/passkey-endpoints`: `{"enroll", "manage"}`, where a passkey is added and where
///   passkeys are managed (W3C "A Well-Known URL for Relying Party Passkey Endpoints"), for password
///   managers that offer an upgrade to a passkey.
/// - `GET /.well-known/webauthn`: `{"origins": […]}`, the configured related origins
///   (`passkey_related_origins`, WebAuthn §5.11); 404 when there are none.
struct WellKnownController: Sendable {
    /// The associated-domains document.
    struct AppSiteAssociation: Encodable, Sendable {
        struct WebCredentials: Encodable, Sendable {
            var apps: [String]
        }
        var webcredentials: WebCredentials
    }

    /// The passkey endpoints document.
    struct PasskeyEndpoints: Encodable, Sendable {
        /// Where a signed-in person adds a passkey.
        var enroll: String
        /// Where a signed-in person sees, renames and removes passkeys.
        var manage: String
    }

    /// The related origins document.
    struct RelatedOriginsDocument: Encodable, Sendable {
        var origins: [String]
    }

    let apps: [String]
    let passkeyEndpoints: PasskeyEndpoints
    let relatedOrigins: [String]

    init(configuration: ServerConfiguration) {
        let team = configuration.apple.teamID
        let clientID = configuration.apple.clientID
        self.apps = configuration.apple.clientIDs.filter { $0 != clientID }.map { "\(team).\($0)" }
        // The account page's passkey section has the "Add a passkey" form and the list.
        let passkeys = configuration.publicOrigin + "/account#passkeys"
        self.passkeyEndpoints = PasskeyEndpoints(enroll: passkeys, manage: passkeys)
        self.relatedOrigins = configuration.passkeyRelatedOrigins
    }

    /// A JSON document as the well-known routes serve it: `application/json`, cacheable for an hour.
    private static func json(_ bytes: Data) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let document = (try? encoder.encode(AppSiteAssociation(webcredentials: .init(apps: apps)))) ?? Data(#"{"webcredentials":{"apps":[]}}"#.utf8)
        routes.get("/.well-known/apple-app-site-association") { _, _ in Self.json(document) }
        let endpoints = (try? encoder.encode(passkeyEndpoints)) ?? Data("{}".utf8)
        routes.get("/.well-known/passkey-endpoints") { _, _ in Self.json(endpoints) }
        let related = relatedOrigins.isEmpty ? nil : try? encoder.encode(RelatedOriginsDocument(origins: relatedOrigins))
        routes.get("/.well-known/webauthn") { _, _ in
            guard let related else { throw ServerError(.notFound, status: .notFound, "this site lists no related origins") }
            return Self.json(related)
        }
        routes.get("/.well-known/change-password") { _, _ in
            Response.seeOther("/account/password")
        }
        return routes
    }
}

import Hummingbird

/// `GET /appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js`: Sign in with Apple JS at the path
/// of Apple's CDN, so a page written for Apple's script runs against the emulator when only the
/// script's host changes. The script (`Resources/appleid.auth.js`, compiled in) reads its locale
/// from its own URL.
struct AppleIDScriptController: Sendable {
    /// The locales served (the button's title is localized).
    static let locales: Set<String> = ["en_US", "zh_CN"]

    /// The script (JavaScript, UTF-8).
    static let script: [UInt8] = PackageResources.appleid_auth_js

    /// The path for `locale`.
    static func path(locale: String) -> String { "/appleauth/static/jsapi/appleid/1/\(locale)/appleid.auth.js" }

    var endpoints: RouteCollection<BasicRequestContext> {
        let router = RouteCollection(context: BasicRequestContext.self)
        router.get("/appleauth/static/jsapi/appleid/1/:locale/appleid.auth.js") { _, context in
            guard let locale = context.parameters.get("locale"), Self.locales.contains(locale) else {
                return HTTPExchange.error(OAuthError(code: "not_found", description: "no script for this locale", status: .notFound))
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/javascript; charset=utf-8"
            headers[.cacheControl] = "public, max-age=3600"
            headers[.xContentTypeOptions] = "nosniff"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: Self.script)))
        }
        return router
    }
}

import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A relying party's web pages on a loopback port of their own (a second origin beside the emulator):
/// `/` is a page written from Apple's documentation of Sign in with Apple JS (meta tags, the
/// `#appleid-signin` button, the success and failure events), with the script's host pointing at the
/// emulator; `/callback` receives the redirect mode's form_post. The query of `/` overrides what the
/// documentation leaves to the developer (`client_id`, `redirect_uri`, `locale`, `popup`).
///
/// As another site, `/forge?frame_id=…` posts a forged "signed in" message to its opener (or its
/// parent, in a frame), with target `*`.
final class RelyingPartyPages: Sendable {
    /// The emulator's base URL, known once it runs.
    let emulatorURL = Mutex("")

    func application(onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router(context: BasicRequestContext.self)
        router.get("/") { request, _ in
            let query = request.uri.queryParameters
            return Self.html(
                Self.page(
                    emulator: self.emulatorURL.withLock { $0 }, clientID: query.get("client_id") ?? "", redirectURI: query.get("redirect_uri") ?? "",
                    locale: query.get("locale") ?? "en_US", popup: query.get("popup") != "false"
                )
            )
        }
        router.post("/callback") { request, _ in
            let body = try await request.body.collect(upTo: 64 * 1024)
            let fields = String(buffer: body).split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" }
            return Self.html("<!DOCTYPE html><title>callback</title><p id=\"callback\">\(fields.sorted().joined(separator: " "))</p>")
        }
        router.get("/forge") { _, _ in
            Self.html(
                """
                <!DOCTYPE html><title>forge</title><script>
                var frame = new URLSearchParams(location.search).get("frame_id");
                (window.opener || parent).postMessage({type: "appleid-signin", frame_id: frame,
                  data: {authorization: {code: "forged-code", id_token: "forged.token.value", state: "forged"}}}, "*");
                document.title = "forged";
                </script>
                """)
        }
        var logger = Logger(label: "relying-party-pages")
        logger.logLevel = .warning
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    static func html(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Apple's documented page; `#sign-in-js` calls `AppleID.auth.signIn()` and records how its
    /// promise settled in `window.outcome`, the events go to `window.events`.
    static func page(emulator: String, clientID: String, redirectURI: String, locale: String, popup: Bool) -> String {
        """
        <!DOCTYPE html>
        <html>
        <head>
        <meta charset="utf-8">
        <title>Relying party</title>
        <meta name="appleid-signin-client-id" content="\(escape(clientID))">
        <meta name="appleid-signin-scope" content="name email">
        <meta name="appleid-signin-redirect-uri" content="\(escape(redirectURI))">
        <meta name="appleid-signin-state" content="rp-state-1">
        <meta name="appleid-signin-nonce" content="rp-nonce-1">
        <meta name="appleid-signin-use-popup" content="\(popup)">
        </head>
        <body>
        <div id="appleid-signin" data-color="black" data-border="true" data-type="sign in" data-width="240" data-height="40"></div>
        <p><button id="sign-in-js" type="button">signIn()</button></p>
        <pre id="outcome"></pre>
        <script type="text/javascript" src="\(escape(emulator))/appleauth/static/jsapi/appleid/1/\(escape(locale))/appleid.auth.js"></script>
        <script>
        window.outcome = null;
        window.events = [];
        document.addEventListener("AppleIDSignInOnSuccess", function (event) { window.events.push({ success: event.detail.data }); });
        document.addEventListener("AppleIDSignInOnFailure", function (event) { window.events.push({ failure: event.detail.error }); });
        window.addEventListener("error", function (event) { window.events.push({ uncaught: String(event.message) }); });
        window.addEventListener("unhandledrejection", function (event) { window.events.push({ unhandled: JSON.stringify(event.reason) }); });
        document.getElementById("sign-in-js").addEventListener("click", function () {
          window.outcome = null;
          AppleID.auth.signIn().then(function (data) { window.outcome = { data: data }; }, function (error) { window.outcome = { error: error }; })
            .then(function () { document.getElementById("outcome").textContent = JSON.stringify(window.outcome, null, 1); });
        });
        </script>
        </body>
        </html>
        """
    }
}

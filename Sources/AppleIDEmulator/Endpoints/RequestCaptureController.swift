import Hummingbird
import JuiceInfrastructure

/// `GET /emulator/admin/requests[?client_id=]` (admin token): the requests to Apple's endpoints the
/// emulator received, oldest first (the last ``RequestCapture/capacity``), as ``RequestCaptureMiddleware``
/// recorded them. A reset forgets them. A browser (`Accept: text/html`) gets them as a page, newest first.
struct RequestCaptureController: Sendable {
    let capture: RequestCapture
    let pages: EmulatorPageRenderer

    /// Registers the route on the admin group (whose ``AdminRequestGuard`` has already checked each request).
    var endpoints: RouteCollection<BasicRequestContext> {
        let admin = RouteCollection(context: BasicRequestContext.self)
        admin.get("requests") { request, context in
            await HTTPExchange.answering(context) {
                let clientID = try HTTPExchange.query(request).nonEmpty("client_id")
                if let clientID, clientID.utf8.count > 255 { throw OAuthError.invalidRequest("client_id is too long") }
                let requests = capture.list(clientID: clientID)
                guard Self.wantsPage(request) else { return HTTPExchange.json(["requests": requests]) }
                let language = request.language
                let values: [String: Any] = [
                    "client_id": clientID ?? "", "any": !requests.isEmpty,
                    "requests": requests.reversed().map { $0.pageValues(language: language) },
                ]
                let title = EmulatorPageRenderer.string("requests_title", language)
                return HTTPExchange.html(pages.render("requests", language: language, title: title, values: values), language: language)
            }
        }
        return admin
    }

    /// Whether the request asks for HTML (a browser's `Accept`) rather than JSON.
    static func wantsPage(_ request: Request) -> Bool {
        (request.headers[.accept] ?? "").contains("text/html")
    }
}

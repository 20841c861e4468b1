import Hummingbird

/// `GET /emulator/admin/requests[?client_id=]` (admin token): the requests to Apple's endpoints the
/// emulator received, oldest first (the last ``RequestCapture/capacity``), as ``RequestCaptureMiddleware``
/// recorded them. A reset forgets them.
struct RequestCaptureController: Sendable {
    let capture: RequestCapture

    /// Registers the route on the admin group (whose ``AdminRequestGuard`` has already checked each request).
    var endpoints: RouteCollection<BasicRequestContext> {
        let admin = RouteCollection(context: BasicRequestContext.self)
        admin.get("requests") { request, context in
            await HTTPExchange.answering(context) {
                let clientID = try HTTPExchange.query(request).nonEmpty("client_id")
                if let clientID, clientID.utf8.count > 255 { throw OAuthError.invalidRequest("client_id is too long") }
                return HTTPExchange.json(["requests": capture.list(clientID: clientID)])
            }
        }
        return admin
    }
}

import Foundation
import HTTPTypes
import Hummingbird

/// The routes of the Apple the kit plays: `/auth/keys`, `/auth/token`, `/auth/revoke`, discovery, and
/// an `/auth/authorize` that only explains itself (the kit authorizes on its own, no person involved).
enum KitAppleRouter {
    /// - Parameter stall: how long `/auth/token` holds its answer for a code issued to stall (`native-apple-slow`);
    ///   the run's end cancels the wait.
    static func build(authority: KitAuthority, baseURL: String, issuer: String, stall: Duration) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/auth/keys") { _, _ in
            guard await !authority.keysUnavailable else {
                return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "")))
            }
            return json(try await authority.keySet())
        }
        router.post("/auth/token") { request, _ in
            guard let form = await form(request) else { return oauthError("invalid_request", "the body must be a form of at most 64 KiB") }
            if await authority.stalls(form["code"]) {
                // Apple is slow: the answer comes late (or, when the run ends first, at once).
                try? await Task.sleep(for: stall)
            }
            switch await authority.token(form: form) {
            case .tokens(let body):
                return json(try JSONEncoder().encode(body))
            case .error(let code, let description):
                return oauthError(code, description)
            case .unavailable:
                return oauthError("server_error", "Apple is unavailable (the kit plays an outage)", status: .serviceUnavailable)
            }
        }
        router.post("/auth/revoke") { request, _ in
            guard let form = await form(request) else { return oauthError("invalid_request", "the body must be a form of at most 64 KiB") }
            if let problem = await authority.revoke(form: form) { return oauthError("invalid_client", problem) }
            return Response(status: .ok)
        }
        router.get("/auth/authorize") { _, _ in
            Response(
                status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "This is juice conformance: it answers authorization requests itself.\n"))
            )
        }
        router.get("/.well-known/openid-configuration") { _, _ in
            let document = [
                "issuer": await authority.discoveryIssuer(),
                "authorization_endpoint": baseURL + "/auth/authorize", "token_endpoint": baseURL + "/auth/token",
                "revocation_endpoint": baseURL + "/auth/revoke", "jwks_uri": baseURL + "/auth/keys",
            ]
            return json(try JSONEncoder().encode(document))
        }
        return router
    }

    /// A form body (`application/x-www-form-urlencoded`, at most 64 KiB), or `nil`.
    static func form(_ request: Request) async -> [String: String]? {
        guard let body = try? await request.body.collect(upTo: 64 * 1024) else { return nil }
        return FormBody.decode(String(buffer: body))
    }

    private static func json(_ data: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func oauthError(_ code: String, _ description: String, status: HTTPResponse.Status = .badRequest) -> Response {
        let data = (try? JSONEncoder().encode(["error": code, "error_description": description])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

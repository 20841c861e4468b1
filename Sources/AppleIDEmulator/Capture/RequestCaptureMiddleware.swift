import Hummingbird
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Records every request to Apple's endpoints in ``RequestCapture``: when, method, path, client id,
/// grant type, redirect URI, the client secret's header and claims (never its signature), and the
/// status and error code answered. Other fields of the request (a code, a refresh token, a password,
/// state, nonce) are never read into the record.
struct RequestCaptureMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Apple's endpoints: what a relying party calls.
    static var paths: Set<String> { capturedPaths }

    let capture: RequestCapture
    let time: EmulatorTime

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.paths.contains(request.uri.path) else { return try await next(request, context) }
        let receivedAt = time.now.timeIntervalSince1970
        var request = request
        var fields = (try? HTTPExchange.query(request)) ?? FormFields()
        var response: Response? = nil
        if request.method == .post, MediaType.essence(of: request.headers[.contentType]) == "application/x-www-form-urlencoded" {
            // Buffered here and read again by the endpoint.
            if let body = try? await request.collectBody(upTo: HTTPExchange.maximumFormBody) {
                fields = (try? FormFields(decoding: body.readableBytesView)) ?? FormFields()
            } else {
                response = HTTPExchange.error(.invalidRequest("the body is larger than \(HTTPExchange.maximumFormBody) bytes"))
            }
        }
        let slot = CapturedErrorCode()
        let answer: Response
        do {
            if let response {
                answer = response
            } else {
                answer = try await CapturedErrorCode.$current.withValue(slot) { try await next(request, context) }
            }
        } catch {
            record(request, fields, receivedAt, status: (error as? any HTTPResponseError)?.status.code ?? 500, error: nil)
            throw error
        }
        let errorCode = response != nil ? "invalid_request" : answer.status.code >= 400 ? slot.value : nil
        record(request, fields, receivedAt, status: answer.status.code, error: errorCode)
        return answer
    }

    private func record(_ request: Request, _ fields: FormFields, _ receivedAt: Double, status: Int, error: String?) {
        let clientSecret = fields.nonEmpty("client_secret").map(CapturedClientSecret.init(secret:))
        capture.record { id in
            CapturedRequest(
                id: id, receivedAt: (receivedAt * 1000).rounded() / 1000, method: request.method.rawValue, path: request.uri.path,
                clientID: CapturedRequest.bounded(fields.nonEmpty("client_id")), grantType: CapturedRequest.bounded(fields.nonEmpty("grant_type")),
                redirectURI: CapturedRequest.bounded(fields.nonEmpty("redirect_uri")), clientSecret: clientSecret, status: status, error: error)
        }
    }
}

/// ``RequestCaptureMiddleware/paths``, built once (a generic type cannot hold a stored static).
private let capturedPaths: Set<String> = [
    "/auth/token", "/auth/revoke", "/auth/usermigrationinfo", "/auth/keys", "/.well-known/openid-configuration", "/auth/authorize",
]

import HTTPTypes
import Hummingbird
import JuiceEncodings
import JuiceInfrastructure
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Request reading and response building shared by every endpoint.
enum HTTPExchange {
    /// The largest form body read.
    static let maximumFormBody = 64 * 1024

    /// Reads a form body: `application/x-www-form-urlencoded`, at most ``maximumFormBody`` bytes, valid UTF-8.
    static func form(_ request: Request) async throws(OAuthError) -> FormFields {
        let contentType = MediaType.essence(of: request.headers[.contentType])
        guard contentType == "application/x-www-form-urlencoded" else {
            throw .invalidRequest("the body must be application/x-www-form-urlencoded")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumFormBody)
        } catch {
            throw .invalidRequest("the body is larger than \(maximumFormBody) bytes")
        }
        do {
            return try FormFields(decoding: body.readableBytesView)
        } catch {
            throw .invalidRequest(error.reason)
        }
    }

    /// Reads a JSON body (admin endpoints): `application/json`, at most 64 KiB.
    static func json<Body: Decodable>(_ request: Request, as type: Body.Type) async throws(OAuthError) -> Body {
        let body = try await jsonData(request)
        do {
            return try JSONDecoder().decode(Body.self, from: body)
        } catch {
            throw .invalidRequest("the body is not the expected JSON object")
        }
    }

    /// The bytes of a JSON body: `application/json`, at most ``maximumFormBody`` bytes.
    static func jsonData(_ request: Request) async throws(OAuthError) -> Data {
        let contentType = MediaType.essence(of: request.headers[.contentType])
        guard contentType == "application/json" else { throw .invalidRequest("the body must be application/json") }
        guard let body = try? await request.body.collect(upTo: maximumFormBody) else {
            throw .invalidRequest("the body is larger than \(maximumFormBody) bytes")
        }
        return Data(body.readableBytesView)
    }

    /// The query string's fields, decoded strictly.
    static func query(_ request: Request) throws(OAuthError) -> FormFields {
        guard let query = request.uri.query, !query.isEmpty else { return FormFields() }
        guard query.utf8.count <= maximumFormBody else { throw .invalidRequest("the query is too long") }
        do {
            return try FormFields(decoding: query[...])
        } catch {
            throw .invalidRequest(error.reason)
        }
    }

    /// A JSON response; never cached.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json;charset=UTF-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Pragma")!] = "no-cache"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Apple's error JSON.
    static func error(_ error: OAuthError) -> Response {
        CapturedErrorCode.current?.record(error.code)
        var body = ["error": error.code]
        if let description = error.description { body["error_description"] = description }
        return json(body, status: error.status)
    }

    /// Runs `body`, turning an ``OAuthError`` into Apple's error JSON and anything else into `server_error`
    /// (logged without details that could hold secrets).
    static func answering(_ context: some RequestContext, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as OAuthError {
            return Self.error(error)
        } catch {
            context.logger.error("emulator request failed", metadata: ["error.type": "\(type(of: error))"])
            return Self.error(.serverError())
        }
    }

    /// An HTML page with security headers; `scriptHash` allows one inline script.
    ///
    /// Forms may post only to the emulator itself (`form-action 'self'`): a crafted value that got markup
    /// into the sign-in page still could not send the typed Apple ID and password elsewhere. The form_post
    /// answer alone (`formPostAnswer`) leaves `form-action` out: its one form, built by the emulator, goes to
    /// the registered redirect URI, and Chromium applies `form-action` to every redirect the submission then
    /// follows, so naming that origin would break a backend whose callback redirects to another origin.
    static func html(
        _ text: String, status: HTTPResponse.Status = .ok, language: PageLanguage, scriptHash: String? = nil, formPostAnswer: Bool = false,
        extraHeaders: HTTPFields = [:]
    ) -> Response {
        var headers = extraHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentLanguage] = language.tag
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        let script = scriptHash.map { "'sha256-\($0)'" } ?? "'none'"
        let formAction = formPostAnswer ? "" : "form-action 'self'; "
        headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src \(script); \(formAction)frame-ancestors 'none'; base-uri 'none'"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A 302 redirect.
    static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .found, headers: headers)
    }
}

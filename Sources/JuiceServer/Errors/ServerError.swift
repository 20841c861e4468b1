import Foundation
import Hummingbird

/// An error the server answers with: an HTTP status, a stable machine-readable code and a reason
/// for humans. API routes answer `{"error": code, "reason": reason}`; pages show a friendly,
/// localized page for the code. The reason never contains a token, password, cookie or secret.
///
/// ```swift
/// throw ServerError.unauthorized("sign in first")
/// ```
struct ServerError: Error, Sendable, Hashable, CustomStringConvertible, HTTPResponseError {
    /// A stable identifier for the problem; the set is closed (``Code`` in ServerError+Code.swift).

    /// The code.
    let code: Code
    /// The HTTP status.
    let status: HTTPResponse.Status
    /// For humans; safe to show and log.
    let reason: String
    /// Extra answer headers the status calls for (`Retry-After` on 429, `Allow` on 405).
    var headers: HTTPFields = [:]

    /// Creates an error.
    init(_ code: Code, status: HTTPResponse.Status, _ reason: String) {
        self.code = code
        self.status = status
        self.reason = reason
    }

    var description: String { "\(code): \(reason)" }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The JSON body `{"error": code, "reason": reason}`.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        jsonResponse()
    }

    /// The JSON error response.
    func jsonResponse() -> Response {
        let body = JSONErrorBody(error: code.rawValue, reason: reason)
        let data = (try? JSONEncoder().encode(body)) ?? Data(#"{"error":"internal_error","reason":"error"}"#.utf8)
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// 400 `invalid_request`.
    static func invalidRequest(_ reason: String) -> Self { .init(.invalidRequest, status: .badRequest, reason) }
    /// 401 `unauthorized`.
    static func unauthorized(_ reason: String = "sign in first") -> Self { .init(.unauthorized, status: .unauthorized, reason) }
    /// 403 `invalid_csrf_token`.
    static func invalidCSRFToken() -> Self {
        .init(.invalidCSRFToken, status: .forbidden, "the form is missing its security token or it has expired; reload the page and try again")
    }
    /// 404 `not_found`.
    static func notFound() -> Self { .init(.notFound, status: .notFound, "there is nothing here") }
    /// 500 `internal_error`.
    static func internalError() -> Self { .init(.internalError, status: .internalServerError, "something went wrong on our side") }
}

/// The body of every JSON error.
struct JSONErrorBody: Codable, Sendable {
    var error: String
    var reason: String
}

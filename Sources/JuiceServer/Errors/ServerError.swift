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
    /// A stable identifier for the problem.
    struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        let rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }
        var description: String { rawValue }

        /// The request is malformed.
        static let invalidRequest = Code(rawValue: "invalid_request")
        /// No valid session or bearer token.
        static let unauthorized = Code(rawValue: "unauthorized")
        /// The form's CSRF token is missing or wrong.
        static let invalidCSRFToken = Code(rawValue: "invalid_csrf_token")
        /// The sign-in `state` is unknown, expired or already used.
        static let invalidState = Code(rawValue: "invalid_state")
        /// The identity token failed verification.
        static let invalidIdentityToken = Code(rawValue: "invalid_identity_token")
        /// The authorization code was already used, or Apple refused it.
        static let invalidCode = Code(rawValue: "invalid_code")
        /// Apple answered the sign-in with an error.
        static let appleError = Code(rawValue: "apple_error")
        /// Apple could not be reached.
        static let appleUnavailable = Code(rawValue: "apple_unavailable")
        /// Wrong username or password (deliberately the same for both).
        static let invalidCredentials = Code(rawValue: "invalid_credentials")
        /// The username is taken.
        static let usernameTaken = Code(rawValue: "username_taken")
        /// The password does not meet the length rules.
        static let invalidPassword = Code(rawValue: "invalid_password")
        /// A new password holds a control character (NUL, tab, a line break…).
        static let passwordInvalidCharacters = Code(rawValue: "password_invalid_characters")
        /// A new password is longer than the 72 UTF-8 bytes bcrypt reads.
        static let passwordTooLong = Code(rawValue: "password_too_long")
        /// Too many attempts; try later.
        static let rateLimited = Code(rawValue: "rate_limited")
        /// The Apple ID is already linked to another account.
        static let appleIDInUse = Code(rawValue: "apple_id_in_use")
        /// No such page or resource.
        static let notFound = Code(rawValue: "not_found")
        /// Something failed inside the server.
        static let internalError = Code(rawValue: "internal_error")
        /// The native relay's `redirect_uri` is not a loopback `http` URI with a port.
        static let invalidRedirectURI = Code(rawValue: "invalid_redirect_uri")
        /// The native sign-in's nonce is unknown, expired or already used.
        static let invalidNonce = Code(rawValue: "invalid_nonce")
        /// The request body is not `application/json`.
        static let unsupportedMediaType = Code(rawValue: "unsupported_media_type")
        /// The request body is larger than the server accepts.
        static let payloadTooLarge = Code(rawValue: "payload_too_large")
        /// A server-to-server notification failed verification.
        static let invalidNotification = Code(rawValue: "invalid_notification")
    }

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

import Foundation
import Hummingbird
import JuiceInfrastructure

extension Request {
    /// The body as text, at most `limit` bytes.
    func bodyText(limit: Int = 64 * 1024) async throws -> String {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch {
            throw ServerError.invalidRequest("the request body is too large")
        }
        return String(buffer: buffer)
    }

    /// The body decoded as an `application/x-www-form-urlencoded` form.
    func form<Form: Decodable>(_ type: Form.Type) async throws -> Form {
        let text = try await bodyText()
        do {
            return try URLEncodedFormDecoder().decode(Form.self, from: text)
        } catch {
            throw ServerError.invalidRequest("the form could not be read")
        }
    }
}

extension Response {
    /// A `303 See Other` to `location` (after a form post, and for sign-in redirects).
    static func seeOther(_ location: String) -> Response {
        var response = Response.redirect(to: location, type: .normal)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

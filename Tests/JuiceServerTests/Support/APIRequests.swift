import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1

/// JSON calls to the server's API, each from a fresh client (no cookies).
enum APIRequests {
    /// Sends `body` as JSON (or nothing) with an optional bearer token.
    static func json(
        _ stack: JuiceStack, _ method: String, _ path: String, _ body: [String: Any]? = nil, bearer: String? = nil
    ) async throws
        -> HTTPResult
    {
        var headers: [(String, String)] = []
        var text: String?
        if let body {
            headers.append(("Content-Type", "application/json"))
            text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        }
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        return try await Browser().send(HTTPMethod(rawValue: method), stack.serverURL + path, headers: headers, body: text)
    }

    /// Sends a raw body with the given content type.
    static func raw(_ stack: JuiceStack, _ path: String, contentType: String?, body: String) async throws -> HTTPResult {
        try await Browser().send(.POST, stack.serverURL + path, headers: contentType.map { [("Content-Type", $0)] } ?? [], body: body)
    }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// An HTTP answer, read whole.
struct HTTPAnswer: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: String
}

/// Sends a request with the shared client (which follows redirects, as a browser does).
func fetch(
    _ url: String,
    method: HTTPMethod = .GET,
    headers: [(String, String)] = [],
    body: String? = nil
) async throws -> HTTPAnswer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(string: body)) }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return HTTPAnswer(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
}

/// Posts form fields, as a browser posts a `form_post` page.
func postForm(_ url: String, _ fields: [(String, String)]) async throws -> HTTPAnswer {
    let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let body = fields.map {
        "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
    }
    .joined(separator: "&")
    return try await fetch(url, method: .POST, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
}

import AsyncHTTPClient
import Foundation
import JuiceTestSupport
import NIOCore
import NIOHTTP1

/// A minimal browser: keeps cookies per host (as a browser would, without SameSite rules), never
/// follows redirects on its own, sends forms. Tests create a fresh one to model a request that
/// carries no cookies (Apple's cross-site form_post).
package actor Browser {
    /// The connection pool requests go through: the running ``JuiceStack``'s own (each stack makes one
    /// and shuts it down after its servers stopped, so a server restarted on the same port is never sent
    /// a pooled connection that the stopped process closed), else ``shared``.
    @TaskLocal package static var pool: HTTPClient = shared

    /// The pool outside a stack.
    package static let shared = makePool()

    /// A pool that never follows redirects (tests read each one).
    package static func makePool() -> HTTPClient {
        HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
    }

    private var jar: [String: [String: String]] = [:]
    package let acceptLanguage: String

    package init(acceptLanguage: String = "en-US,en;q=0.9") {
        self.acceptLanguage = acceptLanguage
    }

    package func cookie(_ name: String, host: String) -> String? { jar[host]?[name] }

    package func setCookie(_ name: String, _ value: String, host: String) { jar[host, default: [:]][name] = value }

    package func clearCookies() { jar = [:] }

    package func get(_ url: String, headers: [(String, String)] = []) async throws -> HTTPResult {
        try await send(.GET, url, headers: headers, body: nil)
    }

    /// Posts a form; `sendCookies: false` models a cross-site POST whose cookies the browser withholds
    /// (the answer's cookies are still kept).
    package func postForm(
        _ url: String, _ fields: [(String, String)], headers: [(String, String)] = [], sendCookies: Bool = true
    ) async throws -> HTTPResult {
        try await send(
            .POST, url, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: Self.encode(fields),
            sendCookies: sendCookies
        )
    }

    package func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)], body: String?, sendCookies: Bool = true
    ) async throws -> HTTPResult {
        let host = URL(string: url)?.host ?? ""
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Accept-Language", value: acceptLanguage)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if sendCookies, let cookies = jar[host], !cookies.isEmpty, !headers.contains(where: { $0.0.lowercased() == "cookie" }) {
            request.headers.add(name: "Cookie", value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await Self.pool.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        let result = HTTPResult(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
        for (name, header) in result.setCookies {
            let value = result.cookieValue(name) ?? ""
            if value.isEmpty || header.lowercased().contains("max-age=0") { jar[host]?[name] = nil } else { jar[host, default: [:]][name] = value }
        }
        return result
    }

    package static func encode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }
        .joined(separator: "&")
    }
}

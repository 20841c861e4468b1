import Foundation
import JuiceEncodings
import JuiceTestSupport
import NIOHTTP1

/// A minimal browser: keeps cookies per host (as a browser would, without SameSite rules), never
/// follows redirects on its own, sends forms. Tests create a fresh one to model a request that
/// carries no cookies (Apple's cross-site form_post). Its requests are ``TestHTTP``'s, through
/// ``TestHTTP/pool`` (a running stack's own).
package actor Browser {
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
            .POST, url, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: FormURLComponent.encode(fields: fields),
            sendCookies: sendCookies
        )
    }

    package func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)], body: String?, sendCookies: Bool = true
    ) async throws -> HTTPResult {
        let host = URL(string: url)?.host ?? ""
        var sent = [("Accept-Language", acceptLanguage)] + headers
        if sendCookies, let cookies = jar[host], !cookies.isEmpty, !headers.contains(where: { $0.0.lowercased() == "cookie" }) {
            sent.append(("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")))
        }
        let result = try await TestHTTP(timeout: .seconds(30)).send(method, url, headers: sent, body: body.map { Array($0.utf8) })
        for (name, header) in result.setCookies {
            let value = result.cookieValue(name) ?? ""
            if value.isEmpty || header.lowercased().contains("max-age=0") { jar[host]?[name] = nil } else { jar[host, default: [:]][name] = value }
        }
        return result
    }
}

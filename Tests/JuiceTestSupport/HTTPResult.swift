import Foundation
import NIOHTTP1

/// An HTTP answer, read whole (the tests' view of a response: status, headers, body, JSON, cookies).
package struct HTTPResult: Sendable {
    package let status: Int
    package let headers: HTTPHeaders
    package let body: String

    package init(status: Int, headers: HTTPHeaders, body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }

    package var error: String? { json?["error"] as? String }

    package subscript(header name: String) -> String? { headers.first(name: name) }

    package var location: String? { headers.first(name: "Location") }

    /// The `Set-Cookie` headers by cookie name (whole header text).
    package var setCookies: [String: String] {
        var cookies: [String: String] = [:]
        for header in headers[canonicalForm: "Set-Cookie"] {
            let name = header.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            cookies[name] = String(header)
        }
        return cookies
    }

    /// The value a `Set-Cookie` gives `name`, if this answer sets it.
    package func cookieValue(_ name: String) -> String? {
        guard let header = setCookies[name] else { return nil }
        let pair = header.split(separator: ";").first ?? ""
        return pair.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
    }
}

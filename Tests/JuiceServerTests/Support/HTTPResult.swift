import Foundation
import NIOHTTP1

/// An HTTP answer, read whole.
struct HTTPResult: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: String

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }

    var error: String? { json?["error"] as? String }

    subscript(header name: String) -> String? { headers.first(name: name) }

    var location: String? { headers.first(name: "Location") }

    /// The `Set-Cookie` headers by cookie name (whole header text).
    var setCookies: [String: String] {
        var cookies: [String: String] = [:]
        for header in headers[canonicalForm: "Set-Cookie"] {
            let name = header.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            cookies[name] = String(header)
        }
        return cookies
    }

    /// The value a `Set-Cookie` gives `name`, if this answer sets it.
    func cookieValue(_ name: String) -> String? {
        guard let header = setCookies[name] else { return nil }
        let pair = header.split(separator: ";").first ?? ""
        return pair.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
    }
}

import Foundation
import JuiceTestSupport

/// Reads what tests need out of pages.
enum Scrape {
    /// The hidden inputs of a page, HTML-unescaped.
    static func hiddenInputs(_ html: String) -> [(String, String)] {
        let pattern = try! NSRegularExpression(pattern: #"<input type="hidden" name="([^"]*)" value="([^"]*)">"#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            (unescape(String(html[Range(match.range(at: 1), in: html)!])), unescape(String(html[Range(match.range(at: 2), in: html)!])))
        }
    }

    /// The first form action of a page.
    static func formAction(_ html: String) -> String? {
        guard let range = html.range(of: #"action="([^"]*)""#, options: .regularExpression) else { return nil }
        return unescape(String(html[range].dropFirst(8).dropLast()))
    }

    /// The text of the element with `id`.
    static func element(_ id: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\">") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.range(of: "<") else { return nil }
        return unescape(String(rest[..<end.lowerBound]))
    }

    /// The CSRF token of a page's forms.
    static func csrf(_ html: String) -> String? {
        hiddenInputs(html).first { $0.0 == "csrf" }?.1
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Query items of a URL.
    static func query(_ url: String) -> [(String, String)] {
        URLComponents(string: url)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? []
    }
}

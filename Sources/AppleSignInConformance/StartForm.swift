// Foundation, not FoundationEssentials: case-insensitive and regular-expression `range(of:options:)` on the start page's HTML.
import Foundation
import JuiceEncodings

/// The first POST form of a start page, as a browser submits it: its action and its hidden fields
/// (a CSRF token among them) plus the name/value of its first submit button.
struct StartForm: Sendable {
    /// The form's `action`, as written (empty: the page's own URL).
    let action: String
    let fields: [(String, String)]

    /// The first `<form method="post">` of `html` (at most 1 MiB is looked at), or `nil`.
    static func parse(_ html: String) -> StartForm? {
        let page = String(html.prefix(1 << 20))
        for form in matches(#"<form\b[^>]*>"#, in: page) {
            let tag = String(page[form])
            guard attribute("method", in: tag)?.lowercased() == "post" else { continue }
            let rest = page[form.upperBound...]
            let body = String(rest.range(of: "</form", options: .caseInsensitive).map { rest[..<$0.lowerBound] } ?? rest)
            var fields: [(String, String)] = []
            var submitted = false
            for input in matches(#"<(input|button)\b[^>]*>"#, in: body) {
                let inputTag = String(body[input])
                let type = attribute("type", in: inputTag)?.lowercased() ?? (inputTag.lowercased().hasPrefix("<button") ? "submit" : "text")
                guard let name = attribute("name", in: inputTag), !name.isEmpty else { continue }
                let value = attribute("value", in: inputTag) ?? ""
                if type == "hidden" {
                    fields.append((name, value))
                } else if type == "submit" && !submitted {
                    submitted = true
                    fields.append((name, value))
                }
            }
            return StartForm(action: attribute("action", in: tag) ?? "", fields: fields)
        }
        return nil
    }

    private static func matches(_ pattern: String, in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start = text.startIndex
        while let range = text.range(of: pattern, options: [.regularExpression, .caseInsensitive], range: start..<text.endIndex) {
            ranges.append(range)
            start = range.upperBound
        }
        return ranges
    }

    /// The decoded value of `name="…"`, `name='…'` or `name=…` in a tag.
    private static func attribute(_ name: String, in tag: String) -> String? {
        let pattern = #"\s"# + name + #"\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)"#
        guard let range = tag.range(of: pattern, options: [.regularExpression, .caseInsensitive]) else { return nil }
        let match = tag[range]
        guard let equals = match.firstIndex(of: "=") else { return nil }
        var value = match[match.index(after: equals)...].trimmingHorizontalSpace()
        if let first = value.first, first == "\"" || first == "'", value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        return decodeEntities(value)
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = text
        for (entity, character) in [("&quot;", "\""), ("&#x27;", "'"), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&#x2F;", "/"), ("&amp;", "&")]
        {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }
}

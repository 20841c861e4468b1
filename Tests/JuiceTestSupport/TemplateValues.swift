import Foundation

/// Values for every variable a set of Mustache templates names, each set to one text: renders every
/// `{{value}}` of a page with hostile text at once (issue 48). A section's name (`{{#error}}`) or a dotted
/// name's head (`{{secret.header}}`) gets an object holding the same values, so the section renders once
/// with them; the string table `t` is left to the renderer, and a triple-brace value (HTML the page builds
/// itself from checked values) is left out.
package enum TemplateValues {
    /// `text` under every name the templates use.
    package static func every(_ templates: [String], text: String) -> [String: Any] {
        var leaves = Set<String>()
        var sections = Set<String>()
        for template in templates {
            var rest = Substring(template)
            while let open = rest.range(of: "{{") {
                rest = rest[open.upperBound...]
                guard let close = rest.range(of: "}}") else { break }
                var tag = rest[..<close.lowerBound]
                rest = rest[close.upperBound...]
                // Comments, partials, pragmas, section ends, and `{{{html}}}` that the page builds itself.
                guard let first = tag.first, !"!>%/{".contains(first) else { continue }
                let isSection = "#^&".contains(first)
                if isSection { tag = tag.dropFirst() }
                let name = tag.split(separator: " ").first.map(String.init) ?? ""
                let parts = name.split(separator: ".").map(String.init)
                guard let head = parts.first, head != "t", head != "lang", head != "title" else { continue }
                if parts.count > 1 {
                    sections.insert(head)
                    leaves.formUnion(parts.dropFirst())
                } else if isSection && first != "&" {
                    sections.insert(head)
                } else {
                    leaves.insert(head)
                }
            }
        }
        var object: [String: Any] = [:]
        for leaf in leaves { object[leaf] = text }
        var values = object
        for section in sections where !leaves.contains(section) { values[section] = object }
        return values
    }
}

extension TemplateValues {
    /// Renders every template but the `partials` twice — with `hostile` in every variable and in the title,
    /// and with harmless text — parses both back (``ParsedMarkup``) and returns what went wrong: a template
    /// whose markup changed, or that does not show the first line of `shown` as text. Empty when all is well.
    /// - Parameter render: renders a template by name with a title and values.
    package static func escapingProblems(
        templates: [String: String], partials: Set<String>, hostile: String, shown: String,
        render: (_ name: String, _ title: String, _ values: [String: Any]) -> String
    ) async throws -> [String] {
        let hostileValues = every(Array(templates.values), text: hostile)
        let harmlessValues = every(Array(templates.values), text: "harmless")
        var problems: [String] = []
        for name in templates.keys.sorted() where !partials.contains(name) {
            let attacked = try await ParsedMarkup.html(render(name, shown, hostileValues))
            let expected = try await ParsedMarkup.html(render(name, "harmless", harmlessValues))
            if attacked.shape != expected.shape { problems.append("\(name): hostile text changed the markup: \(attacked.shape)") }
            if !attacked.shows(shown) { problems.append("\(name): the text is not shown as text") }
        }
        return problems
    }
}

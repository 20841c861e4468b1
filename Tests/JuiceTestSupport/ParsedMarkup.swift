import Foundation
import JuiceProcesses

/// A page or report parsed back by a real parser — Python's `html.parser` (a tokenizer that reads code
/// points, as a browser's does) or `xml.etree` (a conforming XML 1.0 parser) — to prove that text put into
/// it opened no element and no attribute: compare ``shape`` with the shape of the same document rendered
/// from harmless values.
package struct ParsedMarkup: Decodable, Sendable {
    /// One start tag: its name and its attributes' names, in document order.
    package struct Element: Decodable, Hashable, Sendable, CustomStringConvertible {
        package let tag: String
        package let attributes: [String]
        package init(tag: String, attributes: [String]) {
            self.tag = tag
            self.attributes = attributes
        }
        package var description: String { "<\(tag) \(attributes.joined(separator: " "))>" }
    }

    /// Every start tag, in document order.
    package let elements: [Element]
    /// Every text node and attribute value, as the parser decoded them (character references resolved).
    package let texts: [String]
    /// Why an XML document is not well-formed (`nil` for HTML, which has no such notion, and for good XML).
    package let error: String?

    /// The elements and their attribute names: what markup the document holds.
    package var shape: [Element] { elements }

    /// Whether `text` appears whole in one text node or attribute value.
    package func shows(_ text: String) -> Bool { texts.contains { $0.contains(text) } }

    /// `document` parsed by Python's `html.parser`.
    package static func html(_ document: String) async throws -> ParsedMarkup {
        try await parse(document, mode: "html")
    }

    /// `document` parsed by Python's `xml.etree.ElementTree`; ``error`` says why it is not well-formed.
    package static func xml(_ document: String) async throws -> ParsedMarkup {
        try await parse(document, mode: "xml")
    }

    private static func parse(_ document: String, mode: String) async throws -> ParsedMarkup {
        let run = try await SpawnedChild.python(["-c", script, mode], input: Array(document.utf8), deadline: .seconds(60))
        guard run.exit == .exited(0) else { throw ParserFailed(message: run.errorText) }
        return try JSONDecoder().decode(ParsedMarkup.self, from: Data(run.output))
    }

    /// The parser did not run (python3 missing or crashed).
    package struct ParserFailed: Error, CustomStringConvertible {
        let message: String
        package var description: String { "the markup parser failed: \(message)" }
    }

    private static let script = #"""
        import json, sys
        mode = sys.argv[1]
        text = sys.stdin.buffer.read().decode("utf-8")
        elements, texts, error = [], [], None
        if mode == "html":
            from html.parser import HTMLParser
            class Parser(HTMLParser):
                def handle_starttag(self, tag, attrs):
                    elements.append({"tag": tag, "attributes": [name for name, _ in attrs]})
                    texts.extend(value for _, value in attrs if value is not None)
                def handle_startendtag(self, tag, attrs):
                    self.handle_starttag(tag, attrs)
                def handle_data(self, data):
                    texts.append(data)
            parser = Parser(convert_charrefs=True)
            parser.feed(text)
            parser.close()
        else:
            import xml.etree.ElementTree as ET
            try:
                root = ET.fromstring(text.encode("utf-8"))
                for element in root.iter():
                    elements.append({"tag": element.tag, "attributes": list(element.attrib.keys())})
                    texts.extend(element.attrib.values())
                    texts.extend(t for t in (element.text, element.tail) if t)
            except ET.ParseError as problem:
                error = str(problem)
        print(json.dumps({"elements": elements, "texts": texts, "error": error}))
        """#
}

import JuiceInfrastructure
import JuiceTestSupport
import Testing

@Suite("PageTemplateLibrary: a page gets its language, title and string table; values are escaped")
struct PageTemplateLibraryTests {
    static func library() throws -> PageTemplateLibrary {
        let templates = [
            "head": PageTemplateLibrary.documentStart + "<title>{{title}}</title>\n</head>",
            "page": "{{> head}}<body><h1>{{t.greeting}}</h1><p>{{name}}</p></body></html>",
        ]
        let strings: @Sendable (PageLanguage) -> [String: String] = { language in
            ["greeting": language == .english ? "Hello" : "你好"]
        }
        return try PageTemplateLibrary(templates: templates, strings: strings)
    }

    @Test("the language's tag, the title and the language's strings reach the template through partials")
    func renders() throws {
        let library = try Self.library()
        let english = library.render("page", language: .english, title: "Sign In", values: ["name": "Ann"])
        #expect(english.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(english.contains("<title>Sign In</title>"))
        #expect(english.contains("<h1>Hello</h1><p>Ann</p>"))
        let chinese = library.render("page", language: .simplifiedChinese, title: "登录", values: ["name": "Ann"])
        #expect(chinese.contains("<html lang=\"zh-Hans\">"))
        #expect(chinese.contains("<h1>你好</h1>"))
    }

    @Test("a value from a request is HTML-escaped")
    func escapes() throws {
        let library = try Self.library()
        let page = library.render("page", language: .english, title: "t", values: ["name": "<script>\"&"])
        #expect(!page.contains("<script>"))
        #expect(page.contains("&lt;script&gt;"))
    }

    @Test("values are escaped by Unicode scalar, not by Character: a quote with U+0301 and < after U+0600 open nothing (issue 48)")
    func escapesByScalar() async throws {
        let templates = ["page": #"<p title="{{value}}">{{value}}</p>"#]
        let library = try PageTemplateLibrary(templates: templates, strings: { _ in [:] })
        for value in [HostileMarkup.quoteWithCombiningMark, HostileMarkup.prependedLessThan, HostileMarkup.formSwapState] {
            let page = library.render("page", language: .english, title: "t", values: ["value": value])
            let parsed = try await ParsedMarkup.html(page)
            #expect(parsed.shape == [.init(tag: "p", attributes: ["title"])], "\(page)")
            #expect(parsed.texts == [value, value])
        }
        let controls = library.render("page", language: .english, title: "t", values: ["value": "a\u{1B}b" + HostileMarkup.scalar(0xFFFE) + "c"])
        #expect(controls == "<p title=\"a\u{FFFD}b\u{FFFD}c\">a\u{FFFD}b\u{FFFD}c</p>")
    }

    @Test("an unknown template renders nothing, and a template that does not compile is refused")
    func refusals() throws {
        let library = try Self.library()
        #expect(library.render("missing", language: .english, title: "t", values: [:]) == "")
        #expect(throws: (any Error).self) { try PageTemplateLibrary(templates: ["bad": "{{#open}}"], strings: { _ in [:] }) }
    }
}

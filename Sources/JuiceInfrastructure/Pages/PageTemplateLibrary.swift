import Mustache

/// Mustache templates rendered in a language: each render gets `lang`, `title` and the language's
/// string table as `t` (so a template writes `{{t.sign_in}}`). Every `{{value}}` is escaped by Unicode
/// scalar (``ScalarHTMLContentType``, JuiceEncodings' `htmlEscaped`), never by swift-mustache's own
/// per-`Character` escaping, so text from the request can be shown safely in text and quoted attributes.
package struct PageTemplateLibrary: Sendable {
    /// How every page begins, up to the end of the shared `<head>` lines: doctype, `<html lang>`,
    /// charset and viewport. A page set's head partial starts with it and adds its title and style.
    package static let documentStart = """
        <!DOCTYPE html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        """

    private let library: MustacheLibrary
    private let strings: @Sendable (PageLanguage) -> [String: String]

    /// Compiles `templates` (name → Mustache text; partials by name) once, each beginning with the pragma
    /// that escapes by scalar.
    /// - Parameter strings: The string table of a language.
    package init(templates: [String: String], strings: @escaping @Sendable (PageLanguage) -> [String: String]) throws {
        _ = ScalarHTMLContentType.registered
        var library = MustacheLibrary()
        for (name, text) in templates {
            try library.register(ScalarHTMLContentType.pragma + text, named: name)
        }
        self.library = library
        self.strings = strings
    }

    /// Renders `template` with `values`; `lang`, `title` and the language's strings (`t`) are added.
    package func render(_ template: String, language: PageLanguage, title: String, values: [String: Any]) -> String {
        var context = values
        context["lang"] = language.tag
        context["title"] = title
        context["t"] = strings(language)
        return library.render(context, withTemplate: template) ?? ""
    }
}

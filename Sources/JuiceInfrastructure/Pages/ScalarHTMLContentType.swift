import JuiceEncodings
import Mustache

/// How every page's `{{value}}` is escaped: JuiceEncodings' `htmlEscaped`, one Unicode scalar at a time.
///
/// swift-mustache's built-in `HTML` content type (its default) escapes by `Character`: a quote followed by a
/// combining mark, or `<` after U+0600, is one grapheme cluster, compares unequal to `"` and `<`, and passes
/// through raw — an attribute closed and an element opened by a crafted `state` or `client_id`.
/// ``PageTemplateLibrary`` begins every template with ``pragma``, which selects this type instead.
struct ScalarHTMLContentType: MustacheContentType {
    /// The name the type is registered under (`{{% CONTENT_TYPE: JUICE_SCALAR_HTML}}`).
    static let name = "JUICE_SCALAR_HTML"

    /// The pragma that selects this type; it renders as nothing.
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    /// Registers the type with swift-mustache once per process (a template naming an unregistered type does
    /// not compile, so a library cannot be built without it).
    static let registered: Void = MustacheContentTypes.register(ScalarHTMLContentType(), named: name)

    func escapeText(_ text: String) -> String { text.htmlEscaped }
}

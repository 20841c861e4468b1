import Foundation
import HTTPTypes
import Hummingbird
import JuiceInfrastructure

/// Renders Juice's pages (``PageTemplates``) in the request's language and wraps them in responses
/// with a strict Content-Security-Policy.
struct PageRenderer: Sendable {
    private let library: PageTemplateLibrary

    /// The policy of every page: no scripts, no external anything, forms only to this site.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// Every template by name (partials included).
    static let templates = [
        "head": PageTemplates.head, "foot": PageTemplates.foot, "messages": PageTemplates.messages, "login": PageTemplates.login,
        "signup": PageTemplates.signup, "account": PageTemplates.account, "password": PageTemplates.password, "error": PageTemplates.error,
    ]

    init() throws {
        self.library = try PageTemplateLibrary(templates: Self.templates, strings: PageStrings.table)
    }

    /// Renders `template` with `values`; the language's strings (`t`), `lang` and `title` are added.
    func render(_ template: String, language: PageLanguage, title: String, values: [String: Any]) -> String {
        library.render(template, language: language, title: title, values: values)
    }

    /// An HTML response for `body`.
    func response(_ body: String, status: HTTPResponse.Status = .ok, language: PageLanguage) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentLanguage: language.tag,
            .cacheControl: "no-store",
            .contentSecurityPolicy: Self.contentSecurityPolicy,
        ]
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The friendly page for an error: localized message by code, never a stack trace.
    func errorPage(_ error: ServerError, language: PageLanguage) -> Response {
        let message = PageStrings.table(language)["error_" + error.code.rawValue] ?? PageStrings.string("error_internal_error", language)
        let body = render(
            "error", language: language, title: PageStrings.string("error_title", language),
            values: ["message": message, "code": error.code.rawValue]
        )
        return response(body, status: error.status, language: language)
    }
}

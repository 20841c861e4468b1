import Crypto
import Hummingbird
import JuiceInfrastructure

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Renders the Apple pages from ``EmulatorPageTemplates`` with the strings of the chosen language.
struct EmulatorPageRenderer: Sendable {
    private let library: PageTemplateLibrary
    /// The CSP hash of the form_post page's auto-submit script.
    let autoSubmitScriptHash: String
    /// The CSP hash of the web_message page's script.
    let webMessageScriptHash: String

    /// Every template by name (partials included).
    static let templates = [
        "head": EmulatorPageTemplates.head, "foot": EmulatorPageTemplates.foot, "hidden": EmulatorPageTemplates.hiddenFields,
        "sign_in": EmulatorPageTemplates.signIn, "consent": EmulatorPageTemplates.consent, "form_post": EmulatorPageTemplates.formPost,
        "web_message": EmulatorPageTemplates.webMessage,
        "error": EmulatorPageTemplates.error, "portal_sign_in": EmulatorPageTemplates.portalSignIn, "portal": EmulatorPageTemplates.portal,
        "mail_message": EmulatorPageTemplates.mailMessage, "root": EmulatorPageTemplates.root,
        "requests": EmulatorPageTemplates.requests,
    ]

    init() throws {
        self.library = try PageTemplateLibrary(templates: Self.templates, strings: EmulatorPageStrings.table)
        self.autoSubmitScriptHash = Data(SHA256.hash(data: Array(EmulatorPageTemplates.autoSubmitScript.utf8))).base64EncodedString()
        self.webMessageScriptHash = Data(SHA256.hash(data: Array(EmulatorPageTemplates.webMessageScript.utf8))).base64EncodedString()
    }

    /// Renders `template` with `values`; `title` and the language's strings are added.
    func render(_ template: String, language: PageLanguage, title: String, values: [String: Any]) -> String {
        library.render(template, language: language, title: title, values: values)
    }

    /// A localized string with `%@` replaced by `argument`.
    static func string(_ key: String, _ language: PageLanguage, _ argument: String = "") -> String {
        (EmulatorPageStrings.table(language)[key] ?? key).replacing("%@", with: argument)
    }

    /// Hidden inputs for `pairs`.
    static func hidden(_ pairs: [(String, String)]) -> [[String: String]] {
        pairs.map { ["name": $0.0, "value": $0.1] }
    }

    /// The `response_mode=web_message` page: posts `message` to the opener at `origin`; an error page
    /// (when `error` is given) stays open, an answer closes the popup.
    func webMessagePage(_ message: WebMessage, origin: String, error: OAuthError?, language: PageLanguage) -> Response {
        let heading = Self.string(error == nil ? "redirecting" : "error_title", language)
        var values: [String: Any] = ["origin": origin, "message": message.json, "close": error == nil ? "true" : "false", "heading": heading]
        if let error {
            values["code"] = error.code
            if let description = error.description { values["description"] = description }
        }
        let body = render("web_message", language: language, title: heading, values: values)
        return HTTPExchange.html(body, status: error?.status ?? .ok, language: language, scriptHash: webMessageScriptHash)
    }

    /// The error page (never a form).
    func errorPage(_ error: OAuthError, language: PageLanguage) -> Response {
        let body = render(
            "error", language: language, title: Self.string("error_title", language),
            values: error.description.map { ["code": error.code, "description": $0] } ?? ["code": error.code]
        )
        return HTTPExchange.html(body, status: error.status, language: language)
    }
}

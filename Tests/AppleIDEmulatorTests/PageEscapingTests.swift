import Foundation
import JuiceEncodings
import JuiceInfrastructure
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

/// Issue 48: every value on an Apple page is escaped by Unicode scalar, so a quote or `<` joined to a mark
/// cannot open an element or an attribute; the pages' forms post only to the emulator; the requests page
/// survives any stored record. Each page is parsed back by Python's `html.parser`.
@Suite("Emulator pages: escaping by scalar, form-action 'self', a capture that always serialises")
struct EmulatorPageEscapingTests {
    static let partials: Set<String> = ["head", "foot", "hidden"]

    @Test("every template, with hostile text in every variable and the title, has the markup it has with harmless text")
    func everyTemplate() async throws {
        let pages = try EmulatorPageRenderer()
        let problems = try await TemplateValues.escapingProblems(
            templates: EmulatorPageRenderer.templates, partials: Self.partials, hostile: HostileMarkup.all + HostileMarkup.formSwapState,
            shown: HostileMarkup.prependedLessThan
        ) { name, title, values in pages.render(name, language: .english, title: title, values: values) }
        #expect(problems == [])
    }

    @Test("the issue's state on the sign-in page stays in its hidden input: one form, to /auth/authorize; CSP form-action 'self'")
    func signInPageState() async throws {
        try await RunningEmulator.with { emulator in
            let query = FormURLComponent.encode(fields: WebFlow.parameters(state: HostileMarkup.formSwapState))
            let page = try await emulator.http.get("/auth/authorize?" + query)
            #expect(page.status == 200)
            let parsed = try await ParsedMarkup.html(page.body)
            let forms = parsed.elements.filter { $0.tag == "form" }
            #expect(forms.count == 1)
            #expect(WebFlow.formAction(page.body) == "/auth/authorize")
            #expect(WebFlow.hiddenInputs(page.body)["state"] == HostileMarkup.formSwapState)
            let policy = try #require(page[header: "Content-Security-Policy"])
            #expect(policy.contains("form-action 'self'"))
        }
    }

    @Test("every page but the form_post answer carries form-action 'self'; the form_post answer still posts to the redirect URI")
    func formAction() async throws {
        try await RunningEmulator.with { emulator in
            for path in ["/", "/auth/authorize?" + FormURLComponent.encode(fields: WebFlow.parameters()), "/auth/authorize?client_id=unknown"] {
                let page = try await emulator.http.get(path)
                #expect(page[header: "Content-Security-Policy"]?.contains("form-action 'self'") == true, "\(path)")
            }
            let answer = try await WebFlow.signIn(emulator)
            #expect(WebFlow.formAction(answer.body) == Fixture.redirectURI)
            #expect(answer[header: "Content-Security-Policy"]?.contains("form-action") == false)
        }
    }

    @Test("the issue's client_id on one unauthenticated POST /auth/token shows as text on the requests page, no <meta>")
    func requestsPageClientID() async throws {
        try await RunningEmulator.with { emulator in
            let token = try await emulator.http.postForm(
                "/auth/token",
                [
                    ("client_id", HostileMarkup.metaRefreshClientID), ("grant_type", "authorization_code"), ("code", "x"),
                    ("redirect_uri", HostileMarkup.reportRedirectURI),
                ])
            #expect(token.status == 400)
            let page = try await emulator.http.get("/emulator/admin/requests", headers: FailureInjectionTests.admin + [("Accept", "text/html")])
            #expect(page.status == 200)
            let parsed = try await ParsedMarkup.html(page.body)
            #expect(!parsed.elements.contains { $0.tag == "meta" && $0.attributes.contains("http-equiv") })
            #expect(!parsed.elements.contains { $0.tag == "img" })
            #expect(parsed.shows(HostileMarkup.metaRefreshClientID))
            #expect(page[header: "Content-Security-Policy"]?.contains("form-action 'self'") == true)
        }
    }

    @Test("a client secret whose header nests 510 objects is kept unread; the listing still answers with every request")
    func deeplyNestedSecret() async throws {
        try await RunningEmulator.with { emulator in
            let header = String(repeating: #"{"":"#, count: 510) + "1" + String(repeating: "}", count: 510)
            let secret = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(#"{"iss":"T"}"#.utf8)) + ".c2ln"
            #expect(secret.utf8.count <= CapturedClientSecret.maximumLength)
            let token = try await emulator.http.postForm(
                "/auth/token", [("client_id", Fixture.servicesID), ("client_secret", secret), ("grant_type", "authorization_code"), ("code", "x")])
            #expect(token.status == 400 || token.status == 401)
            let listed = try await emulator.http.get("/emulator/admin/requests", headers: FailureInjectionTests.admin)
            #expect(listed.status == 200)
            let requests = try #require(listed.json?["requests"] as? [[String: Any]])
            #expect(requests.count == 1)
            let captured = requests.first?["client_secret"] as? [String: Any]
            #expect(captured?["header"] as? [String: Any] == nil, "unread: absent or null")
            #expect((captured?["claims"] as? [String: Any])?["iss"] as? String == "T")
            let page = try await emulator.http.get("/emulator/admin/requests", headers: FailureInjectionTests.admin + [("Accept", "text/html")])
            #expect(page.status == 200)
        }
    }

    @Test("a captured client secret's JSON keeps 16 levels and refuses 17")
    func depthBound() throws {
        func nested(_ depth: Int) -> Data { Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }
        #expect(throws: Never.self) { try CapturedClientSecret.decode(nested(CapturedClientSecret.maximumDepth)) }
        #expect(throws: DecodingError.self) { try CapturedClientSecret.decode(nested(CapturedClientSecret.maximumDepth + 1)) }
    }
}

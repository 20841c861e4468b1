import Foundation
import JuiceInfrastructure
import JuiceTestSupport
import Testing

@testable import JuiceServer

/// Issue 48: every value on Juice's pages is escaped by Unicode scalar; each page is parsed back by Python's
/// `html.parser` to prove that hostile text opened no element and no attribute.
@Suite("Juice pages: escaping by scalar, parsed back")
struct PageEscapingTests {
    static let partials: Set<String> = ["head", "foot", "messages"]

    @Test("every template, with hostile text in every variable and the title, has the markup it has with harmless text")
    func everyTemplate() async throws {
        let pages = try PageRenderer()
        let problems = try await TemplateValues.escapingProblems(
            templates: PageRenderer.templates, partials: Self.partials, hostile: HostileMarkup.all, shown: HostileMarkup.prependedLessThan
        ) { name, title, values in pages.render(name, language: .english, title: title, values: values) }
        #expect(problems == [])
    }

    @Test("a username with a quote and U+0301, typed into the sign-in form, comes back in the input's value and adds no attribute")
    func usernameReflectedOnTheLoginPage() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            let hostile = try await PasswordAccountTests.signIn(
                stack, browser, username: HostileMarkup.quoteWithCombiningMark, password: "tangerine-dream-42")
            let harmless = try await PasswordAccountTests.signIn(stack, browser, username: "harmless", password: "tangerine-dream-42")
            #expect(hostile.status == harmless.status)
            let attacked = try await ParsedMarkup.html(hostile.body)
            let expected = try await ParsedMarkup.html(harmless.body)
            #expect(attacked.shape == expected.shape)
            let input = attacked.elements.first { $0.tag == "input" && $0.attributes.contains("autocomplete") }
            #expect(input?.attributes.contains("onfocus") == false)
            #expect(attacked.shows(HostileMarkup.quoteWithCombiningMark))
        }
    }

    @Test("a username with a quote and U+0301 shows on the account page as text, in its own element")
    func usernameOnTheAccountPage() async throws {
        try await JuiceStack.with { stack in
            let browser = Browser()
            let username = "ann\"\u{301}><b>bold</b>"
            let signUp = try await PasswordAccountTests.signUp(stack, browser, username: username, password: "tangerine-dream-42")
            #expect(signUp.status == 303)
            let account = try await browser.get(stack.serverURL + "/account")
            let parsed = try await ParsedMarkup.html(account.body)
            #expect(!parsed.elements.contains { $0.tag == "b" })
            #expect(parsed.shows(username))
        }
    }
}

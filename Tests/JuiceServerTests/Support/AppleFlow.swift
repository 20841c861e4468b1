import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

/// Drives Sign in with Apple across the server and the emulator, step by step, like a browser.
enum AppleFlow {
    /// Apple's answer, as the emulator's auto-submitting form would post it.
    struct ApplePost: Sendable {
        var action: String
        var fields: [(String, String)]

        func field(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

        func replacing(_ name: String, with value: String) -> ApplePost {
            ApplePost(action: action, fields: fields.map { $0.0 == name ? ($0.0, value) : $0 })
        }
    }

    /// `GET /auth/apple`: the authorize URL the server redirects to.
    static func start(_ stack: JuiceStack, _ browser: Browser) async throws -> String {
        let start = try await browser.get(stack.serverURL + "/auth/apple")
        #expect(start.status == 302)
        return try #require(start.location)
    }

    /// Signs in (and consents) at the emulator in one POST, or cancels; returns the form_post to deliver.
    static func authorize(
        _ authorizeURL: String, account: EmulatorConfiguration.AppleID = StackEnvironment.johnny, action: String = "continue",
        emailChoice: String = "share", browser: Browser
    ) async throws -> ApplePost {
        let base = String(authorizeURL.prefix { $0 != "?" })
        let fields =
            Scrape.query(authorizeURL) + [
                ("account_name", account.email), ("password", account.password), ("email_choice", emailChoice), ("action", action),
            ]
        let page = try await browser.postForm(base, fields)
        #expect(page.status == 200, "the emulator answered \(page.status): \(page.body.prefix(300))")
        return ApplePost(action: try #require(Scrape.formAction(page.body)), fields: Scrape.hiddenInputs(page.body))
    }

    /// Posts Apple's answer to the callback as a cross-site POST (no cookies, the emulator's Origin),
    /// then follows its redirect to `/auth/apple/finish` as a browser does: a top-level GET, which
    /// carries the browser's Lax cookies. Returns the last answer.
    static func deliver(_ post: ApplePost, _ stack: JuiceStack, _ browser: Browser) async throws -> HTTPResult {
        let callback = try await browser.postForm(post.action, post.fields, headers: [("Origin", stack.emulatorURL)], sendCookies: false)
        guard callback.status == 303, let location = callback.location, location.hasPrefix("/auth/apple/finish?") else { return callback }
        return try await browser.get(stack.serverURL + location)
    }

    /// The whole flow; returns the callback's answer.
    @discardableResult
    static func signIn(
        _ stack: JuiceStack, _ browser: Browser, account: EmulatorConfiguration.AppleID = StackEnvironment.johnny, emailChoice: String = "share"
    ) async throws -> HTTPResult {
        let url = try await start(stack, browser)
        let post = try await authorize(url, account: account, emailChoice: emailChoice, browser: browser)
        return try await deliver(post, stack, browser)
    }

    /// `GET /api/me` with a bearer token.
    static func me(_ stack: JuiceStack, token: String) async throws -> HTTPResult {
        try await Browser().get(stack.serverURL + "/api/me", headers: [("Authorization", "Bearer \(token)")])
    }
}

import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1

@testable import AppleIDEmulator

/// What the person does in the browser once `juice login` (or JuiceClient) opened it at the server's
/// loopback bridge: the bridge redirects to Apple (the emulator), the person signs in and consents (or
/// cancels) — one POST with every field, as the emulator's form sends it — and the form_post page
/// is submitted to the server's callback, which redirects to the client's loopback address.
enum AppleAtTheBrowser {
    /// Never follows redirects: each hop is checked.
    static var http: TestHTTP { TestHTTP(timeout: .seconds(20)) }

    /// How the person answers at Apple.
    enum Choice: Sendable {
        case signIn(email: String, password: String)
        case cancel
    }

    /// Walks the flow from the bridge URL; `tamperState` rewrites the `state` the loopback receives
    /// (a forged callback). Returns the loopback's answer.
    static func complete(
        bridgeURL: String, choice: Choice = .signIn(email: StackEnvironment.johnny.email, password: StackEnvironment.johnny.password),
        tamperState: String? = nil
    ) async throws -> HTTPResult {
        let bridge = try await http.get(bridgeURL)
        guard (300..<400).contains(bridge.status), let authorize = bridge.headers.first(name: "Location") else {
            throw Unexpected("the bridge answered \(bridge.status): \(bridge.body.prefix(300))")
        }
        var fields = URLComponents(string: authorize)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? []
        switch choice {
        case .signIn(let email, let password):
            fields += [("account_name", email), ("password", password), ("email_choice", "share"), ("action", "continue")]
        case .cancel:
            fields += [("action", "cancel")]
        }
        let page = try await http.postForm(String(authorize.prefix { $0 != "?" }), fields)
        guard page.status == 200, let action = formAction(page.body) else {
            throw Unexpected("Apple answered \(page.status): \(page.body.prefix(300))")
        }
        let callback = try await http.postForm(action, hiddenInputs(page.body))
        guard callback.status == 303, var loopback = callback.headers.first(name: "Location") else {
            throw Unexpected("the callback answered \(callback.status): \(callback.body.prefix(300))")
        }
        if let tamperState, var components = URLComponents(string: loopback) {
            components.queryItems = components.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: tamperState) : $0 }
            loopback = components.string ?? loopback
        }
        return try await http.get(loopback)
    }

    private static func hiddenInputs(_ html: String) -> [(String, String)] {
        let pattern = try! NSRegularExpression(pattern: #"<input type="hidden" name="([^"]*)" value="([^"]*)">"#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            (unescape(String(html[Range(match.range(at: 1), in: html)!])), unescape(String(html[Range(match.range(at: 2), in: html)!])))
        }
    }

    private static func formAction(_ html: String) -> String? {
        guard let range = html.range(of: #"action="([^"]*)""#, options: .regularExpression) else { return nil }
        return unescape(String(html[range].dropFirst(8).dropLast()))
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    struct Unexpected: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension ScriptedPerson {
    /// Waits for the browser to be opened the `index`th time, then signs in (or cancels) at Apple.
    func signInAtApple(
        _ index: Int = 0,
        choice: AppleAtTheBrowser.Choice = .signIn(email: StackEnvironment.johnny.email, password: StackEnvironment.johnny.password),
        tamperState: String? = nil
    ) async throws -> HTTPResult {
        // As long as a command may take to open the browser (JuiceCommand's bound, less the time the
        // person needs at Apple): a full parallel test run on two cores has taken over a minute to start one.
        guard let url = try await eventually(timeout: .seconds(90), { openedURLs.count > index ? openedURLs[index] : nil }) else {
            throw AppleAtTheBrowser.Unexpected("the browser was never opened")
        }
        return try await AppleAtTheBrowser.complete(bridgeURL: url, choice: choice, tamperState: tamperState)
    }
}

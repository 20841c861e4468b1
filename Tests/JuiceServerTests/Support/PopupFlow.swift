import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import AppleIDEmulator

/// Drives the login page's popup sign-in over HTTP, like its script and the emulator's popup do.
enum PopupFlow {
    /// `POST /auth/apple/popup` as the page's script sends it (`origin: nil` sends no `Origin`).
    static func start(_ stack: JuiceStack, _ browser: Browser, origin: String?) async throws -> HTTPResult {
        try await post(stack.serverURL + "/auth/apple/popup", "{}", browser, origin: origin)
    }

    /// The configuration `POST /auth/apple/popup` answered.
    static func configuration(_ stack: JuiceStack, _ browser: Browser) async throws -> [String: Any] {
        let start = try await start(stack, browser, origin: stack.serverURL)
        #expect(start.status == 200, "\(start.body)")
        return try #require(start.json)
    }

    /// Signs in (and consents) at the emulator with `response_mode=web_message`, as the popup does;
    /// returns the `data` the popup posts to the page (`authorization`, `user`).
    static func authorize(
        _ configuration: [String: Any], _ stack: JuiceStack, account: EmulatorConfiguration.AppleID = StackEnvironment.johnny, browser: Browser
    ) async throws -> [String: Any] {
        let fields: [(String, String)] = [
            ("client_id", configuration["clientId"] as? String ?? ""), ("redirect_uri", configuration["redirectURI"] as? String ?? ""),
            ("response_type", "code id_token"), ("response_mode", "web_message"), ("scope", configuration["scope"] as? String ?? ""),
            ("state", configuration["state"] as? String ?? ""), ("nonce", configuration["nonce"] as? String ?? ""), ("frame_id", "test-frame"),
            ("account_name", account.email), ("password", account.password), ("email_choice", "share"), ("action", "continue"),
        ]
        let page = try await browser.postForm(stack.emulatorURL + "/auth/authorize", fields)
        #expect(page.status == 200, "the emulator answered \(page.status): \(page.body.prefix(300))")
        let range = try #require(page.body.range(of: #"data-message="[^"]*""#, options: .regularExpression))
        let text = Scrape.unescape(String(page.body[range].dropFirst(14).dropLast()))
        let message = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any])
        #expect(message["frame_id"] as? String == "test-frame")
        return try #require(message["data"] as? [String: Any])
    }

    /// The body the page posts to `/auth/apple/popup/complete` for `data`.
    static func answer(_ data: [String: Any]) throws -> [String: Any] {
        let authorization = data["authorization"] as? [String: Any] ?? [:]
        var body: [String: Any] = [
            "code": authorization["code"] ?? "", "id_token": authorization["id_token"] ?? "", "state": authorization["state"] ?? "",
        ]
        if let user = data["user"] { body["user"] = user }
        return body
    }

    /// `POST /auth/apple/popup/complete`.
    static func complete(_ stack: JuiceStack, _ browser: Browser, _ body: [String: Any], origin: String?) async throws -> HTTPResult {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await post(stack.serverURL + "/auth/apple/popup/complete", text, browser, origin: origin)
    }

    static func post(
        _ url: String, _ body: String, _ browser: Browser, origin: String?, contentType: String = "application/json"
    ) async throws
        -> HTTPResult
    {
        var headers = [("Content-Type", contentType), ("Accept", "application/json")]
        if let origin { headers.append(("Origin", origin)) }
        return try await browser.send(.POST, url, headers: headers, body: body)
    }
}

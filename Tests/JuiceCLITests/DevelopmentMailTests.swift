import Foundation
import JuiceTestSupport
import NIOHTTP1
import Testing

/// `juice serve` development mode end to end: a real web sign-in with Hide My Email, then Juice's
/// welcome mail reaches the demo Apple ID's inbox through the emulator's private email relay.
@Suite("juice serve development mode: mail through the private email relay")
struct DevelopmentMailTests {
    @Test("after a web sign-in with Hide My Email the welcome mail arrives in the demo Apple ID's inbox", .timeLimit(.minutes(2)))
    func welcomeMailArrives() async throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        try await serve.start()
        #expect(serve.output.contains("smtp://127.0.0.1:\(serve.smtpPort)"))
        try await TestHTTP.withFreshPool {
            let http = TestHTTP(timeout: .seconds(30))
            let session = try await Self.signIn(serve, http)
            // Until the welcome mail has reached the Apple ID's inbox through the relay.
            let messages =
                try await eventually(timeout: .seconds(30), interval: .milliseconds(200)) { () -> [[String: Any]]? in
                    let inbox = try await http.get(serve.emulatorURL + "/emulator/admin/mail?apple_id=appleseed@juice.test")
                    let listed = (try JSONSerialization.jsonObject(with: Data(inbox.body.utf8)) as? [String: Any])?["messages"] as? [[String: Any]]
                    return listed?.isEmpty == false ? listed : nil
                } ?? []
            #expect(messages.count == 1)
            #expect(messages.first?["subject"] as? String == "Welcome to Juice")
            #expect(messages.first?["from"] as? String == "hello@juice.test")
            #expect((messages.first?["to"] as? String)?.hasSuffix("@private.icloud.com") == true)
            #expect(messages.first?["delivered_to"] as? String == "appleseed@juice.test")
            // Juice accepted the new relay domain: its account page shows that address, marked as a relay address.
            let relayAddress = try #require(messages.first?["to"] as? String)
            let account = try await http.get(serve.url + "/account", headers: [("Cookie", try #require(session))])
            #expect(account.body.contains(relayAddress) && account.body.contains("Private relay address"), "\(account.body.prefix(2000))")
        }
    }

    /// `/auth/apple` → the emulator's sign-in and consent (Hide My Email) → the form_post to the callback
    /// → the browser's GET of `/auth/apple/finish` with the flow cookie `/auth/apple` set; returns the
    /// session cookie (`name=value`) the finish set.
    static func signIn(_ serve: ServeProcess, _ http: TestHTTP) async throws -> String? {
        let start = try await http.get(serve.url + "/auth/apple")
        #expect(start.status == 302)
        let authorize = try #require(start.location.flatMap(URLComponents.init(string:)))
        var fields = (authorize.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        fields += [("account_name", "appleseed@juice.test"), ("password", "juice"), ("email_choice", "hide"), ("action", "continue")]
        let base = try #require(start.location?.split(separator: "?").first.map(String.init))
        let page = try await http.postForm(base, fields)
        #expect(page.status == 200)
        let action = try #require(formAction(page.body))
        let callback = try await http.postForm(action, hiddenInputs(page.body), headers: [("Origin", serve.emulatorURL)])
        #expect(callback.status == 303, "the callback answered \(callback.status): \(callback.body.prefix(300))")
        let flow = try #require(firstCookie(start), "GET /auth/apple sets the flow cookie")
        #expect(flow.hasPrefix("juice_flow="))
        let finish = try await http.get(serve.url + (callback.location ?? ""), headers: [("Cookie", flow)])
        #expect(finish.status == 303, "the finish answered \(finish.status): \(finish.body.prefix(300))")
        return firstCookie(finish)
    }

    /// The first `Set-Cookie`'s `name=value`.
    static func firstCookie(_ answer: HTTPResult) -> String? {
        answer.headers.first(name: "Set-Cookie").flatMap { $0.split(separator: ";").first.map(String.init) }
    }

    static func hiddenInputs(_ html: String) -> [(String, String)] {
        let pattern = #/<input type="hidden" name="([^"]*)" value="([^"]*)">/#
        return html.matches(of: pattern).map { (unescape(String($0.output.1)), unescape(String($0.output.2))) }
    }

    static func formAction(_ html: String) -> String? {
        html.firstMatch(of: #/action="([^"]*)"/#).map { unescape(String($0.output.1)) }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}

import AppleSignIn
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

/// `response_mode=web_message` over plain HTTP: what the popup's last page posts, to which origin.
@Suite("response_mode=web_message and the Sign in with Apple JS script")
struct WebMessageTests {
    /// The `data-` attributes of the page's `#apple-web-message`, HTML-unescaped.
    static func webMessage(_ html: String) -> (origin: String, message: [String: Any], close: String)? {
        guard let start = html.range(of: #"<div id="apple-web-message""#), let end = html[start.upperBound...].range(of: ">") else { return nil }
        let tag = String(html[start.lowerBound..<end.lowerBound])
        func attribute(_ name: String) -> String? {
            guard let range = tag.range(of: #"\#(name)="([^"]*)""#, options: .regularExpression) else { return nil }
            return WebFlow.unescape(String(tag[range].dropFirst(name.count + 2).dropLast()))
        }
        guard let origin = attribute("data-origin"), let text = attribute("data-message"), let close = attribute("data-close"),
            let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        else { return nil }
        return (origin, message, close)
    }

    @Test("a popup sign-in's last page posts code, id_token, state, frame_id and the first-time user to the redirect URI's origin, then closes")
    func signedIn() async throws {
        try await RunningEmulator.with { emulator in
            let parameters = WebFlow.parameters(responseMode: "web_message") + [("frame_id", "frame-0123_abc")]
            let page = try await WebFlow.signIn(emulator, parameters: parameters)
            #expect(page.status == 200)
            let posted = try #require(Self.webMessage(page.body))
            #expect(posted.origin == "https://app.example.com")
            #expect(posted.close == "true")
            #expect(posted.message["type"] as? String == "appleid-signin")
            #expect(posted.message["frame_id"] as? String == "frame-0123_abc")
            let data = try #require(posted.message["data"] as? [String: Any])
            let authorization = try #require(data["authorization"] as? [String: Any])
            let code = try #require(authorization["code"] as? String)
            let idToken = try #require(authorization["id_token"] as? String)
            #expect(authorization["state"] as? String == "state-123")
            let user = try #require(data["user"] as? [String: Any])
            #expect((user["name"] as? [String: Any])?["firstName"] as? String == "Alice")
            #expect(user["email"] as? String != nil)
            // The script is allowed by its hash, nothing else runs.
            let policy = try #require(page[header: "Content-Security-Policy"])
            #expect(policy.contains("script-src 'sha256-"))
            // The token is Apple's: nonce and c_hash of this code.
            let token = try await emulator.verifier(audiences: [Fixture.servicesID]).verify(idToken, nonceClaim: "nonce-456", authorizationCode: code)
            #expect(token.audience == Fixture.servicesID)

            // The second time, no user.
            let again = try await WebFlow.signIn(emulator, parameters: parameters)
            let second = try #require(Self.webMessage(again.body))
            #expect((second.message["data"] as? [String: Any])?["user"] == nil)
        }
    }

    @Test("Cancel posts error user_cancelled_authorize with the state and closes the popup")
    func cancel() async throws {
        try await RunningEmulator.with { emulator in
            let page = try await WebFlow.signIn(
                emulator, parameters: WebFlow.parameters(responseMode: "web_message") + [("frame_id", "f1")], action: "cancel")
            let posted = try #require(Self.webMessage(page.body))
            #expect(posted.close == "true")
            let error = try #require(posted.message["error"] as? [String: Any])
            #expect(error["error"] as? String == "user_cancelled_authorize")
            #expect(error["state"] as? String == "state-123")
            #expect(posted.message["data"] == nil)
        }
    }

    @Test(
        "a refused popup request shows Apple's error, posts only the code to the given redirect URI's origin, and stays open",
        arguments: [
            ([("client_id", "com.unknown.web")], "invalid_client"),
            ([("client_id", Fixture.bundleID)], "invalid_client"),
            ([("redirect_uri", "https://evil.example.net/callback")], "invalid_request"),
            ([("frame_id", "<script>")], "invalid_request"),
        ])
    func refused(overrides: [(String, String)], code: String) async throws {
        try await RunningEmulator.with { emulator in
            var parameters = WebFlow.parameters(responseMode: "web_message") + [("frame_id", "f2")]
            for (name, value) in overrides {
                parameters.removeAll { $0.0 == name }
                parameters.append((name, value))
            }
            let page = try await emulator.http.get("/auth/authorize?" + FormURLComponent.encode(fields: parameters))
            #expect(page.status == 400)
            #expect(page.body.contains(code))
            #expect(WebFlow.hiddenInputs(page.body).isEmpty, "never a sign-in form")
            let posted = try #require(Self.webMessage(page.body))
            let redirect = parameters.first { $0.0 == "redirect_uri" }!.1
            #expect(posted.origin == WebMessage.targetOrigin(of: redirect))
            #expect(posted.close == "false")
            #expect((posted.message["error"] as? [String: Any])?["error"] as? String == code)
            #expect(posted.message["data"] == nil)
            #expect(!page.body.contains("<script>\"") && !page.body.contains("data-origin=\"*\""))
        }
    }

    @Test("web_message is refused as a target when the redirect URI is not an http(s) URL, and the origin is never *")
    func targetOrigins() {
        #expect(WebMessage.targetOrigin(of: "https://app.example.com/auth/apple/callback") == "https://app.example.com")
        #expect(WebMessage.targetOrigin(of: "https://app.example.com:443/x") == "https://app.example.com")
        #expect(WebMessage.targetOrigin(of: "http://127.0.0.1:8080/callback") == "http://127.0.0.1:8080")
        #expect(WebMessage.targetOrigin(of: "HTTPS://App.Example.COM/") == "https://app.example.com")
        #expect(WebMessage.targetOrigin(of: "javascript:alert(1)") == nil)
        #expect(WebMessage.targetOrigin(of: "*") == nil)
        #expect(WebMessage.targetOrigin(of: "/relative") == nil)
        #expect(WebMessage.isValidFrameID(String(repeating: "a", count: 128)))
        #expect(!WebMessage.isValidFrameID(String(repeating: "a", count: 129)))
        #expect(!WebMessage.isValidFrameID("a b"))
        #expect(!WebMessage.isValidFrameID(""))
    }

    @Test("a state with markup is escaped in the page, never breaking out of the attribute")
    func hostileState() async throws {
        try await RunningEmulator.with { emulator in
            let state = #""><script>alert(1)</script>"#
            let page = try await WebFlow.signIn(emulator, parameters: WebFlow.parameters(responseMode: "web_message", state: state))
            #expect(!page.body.contains("<script>alert(1)"))
            let posted = try #require(Self.webMessage(page.body))
            #expect(((posted.message["data"] as? [String: Any])?["authorization"] as? [String: Any])?["state"] as? String == state)
        }
    }

    @Test("the script is served at Apple's CDN path for en_US and zh_CN, as cacheable JavaScript; other locales are 404")
    func script() async throws {
        try await RunningEmulator.with { emulator in
            for locale in ["en_US", "zh_CN"] {
                let script = try await emulator.http.get("/appleauth/static/jsapi/appleid/1/\(locale)/appleid.auth.js")
                #expect(script.status == 200)
                #expect(script[header: "Content-Type"] == "text/javascript; charset=utf-8")
                #expect(script[header: "Cache-Control"]?.contains("max-age=") == true)
                #expect(script.body.contains("AppleIDSignInOnSuccess"))
                #expect(script.body.contains("web_message"))
            }
            for path in [
                "/appleauth/static/jsapi/appleid/1/xx_XX/appleid.auth.js", "/appleauth/static/jsapi/appleid/1/..%2F..%2Fkeys/appleid.auth.js",
            ] {
                #expect(try await emulator.http.get(path).status == 404)
            }
        }
    }
}

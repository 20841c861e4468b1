import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

@Suite("The loopback bridge (GET /auth/apple/native) for clients without AuthenticationServices")
struct LoopbackBridgeTests {
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    static func start(_ stack: JuiceStack, redirectURI: String, state: String = "client-state-1", nonce: String) async throws -> HTTPResult {
        try await Browser().get(
            stack.serverURL + "/auth/apple/native?redirect_uri=\(encode(redirectURI))&state=\(encode(state))&nonce=\(encode(nonce))"
        )
    }

    @Test(
        "runs the web flow with the client's hashed nonce and hands code, id_token, user and the client's state to the loopback URI; the credential then signs in"
    )
    func bridge() async throws {
        try await JuiceStack.with { stack in
            let nonce = try await NativeFlow.nonce(stack)
            let hashed = NativeFlow.sha256Hex(nonce)
            let start = try await Self.start(stack, redirectURI: "http://127.0.0.1:53682/callback?session=abc", nonce: hashed)
            #expect(start.status == 302)
            let authorizeURL = try #require(start.location)
            let query = Dictionary(uniqueKeysWithValues: Scrape.query(authorizeURL))
            #expect(authorizeURL.hasPrefix(stack.emulatorURL + "/auth/authorize?"))
            #expect(query["nonce"] == hashed, "Apple gets the client's nonce")
            #expect(query["state"] != "client-state-1", "Apple gets the server's own state")
            #expect(query["client_id"] == StackEnvironment.servicesID)
            #expect(query["redirect_uri"] == stack.serverURL + "/auth/apple/callback")

            let browser = Browser()
            let post = try await AppleFlow.authorize(authorizeURL, browser: browser)
            let callback = try await AppleFlow.deliver(post, stack, browser)
            #expect(callback.status == 303)
            #expect(callback.setCookies["juice_session"] == nil, "the bridge starts no browser session")
            let location = try #require(callback.location)
            #expect(location.hasPrefix("http://127.0.0.1:53682/callback?session=abc&"))
            let handed = Dictionary(uniqueKeysWithValues: Scrape.query(location))
            #expect(handed["state"] == "client-state-1")
            let code = try #require(handed["code"])
            let idToken = try #require(handed["id_token"])
            let user = try #require(handed["user"])
            let userJSON = try #require(try JSONSerialization.jsonObject(with: Data(user.utf8)) as? [String: Any])
            #expect((userJSON["name"] as? [String: Any])?["firstName"] as? String == "Johnny")

            // The client sends the credential exactly as an iOS app would.
            let signIn = try await NativeFlow.post(
                stack,
                [
                    "identityToken": idToken, "authorizationCode": code, "nonce": nonce,
                    "fullName": ["givenName": "Johnny", "familyName": "Appleseed"],
                ]
            )
            #expect(signIn.status == 200, "\(signIn.body.prefix(300))")
            #expect((signIn.json?["account"] as? [String: Any])?["email"] as? String == "appleseed@juice.test")
            // The bridged answer is single use: its server state is spent.
            #expect(try await AppleFlow.deliver(post, stack, Browser()).status == 400)
        }
    }

    @Test("a cancel at Apple reaches the loopback URI as error=user_cancelled_authorize with the client's state")
    func cancel() async throws {
        try await JuiceStack.with { stack in
            let start = try await Self.start(stack, redirectURI: "http://[::1]:40123/done", state: "s-2", nonce: "abc123")
            #expect(start.status == 302)
            let browser = Browser()
            let post = try await AppleFlow.authorize(try #require(start.location), action: "cancel", browser: browser)
            let callback = try await AppleFlow.deliver(post, stack, browser)
            #expect(callback.status == 303)
            let location = try #require(callback.location)
            #expect(location.hasPrefix("http://[::1]:40123/done?"))
            let handed = Dictionary(uniqueKeysWithValues: Scrape.query(location))
            #expect(handed["error"] == "user_cancelled_authorize")
            #expect(handed["state"] == "s-2")
            #expect(handed["code"] == nil)
        }
    }

    @Test(
        "only loopback http URIs with a port are accepted: localhost, other hosts, https, no port, user info and fragments are refused with 400 invalid_redirect_uri"
    )
    func loopbackOnly() async throws {
        try await JuiceStack.with { stack in
            for refused in [
                "http://localhost:5000/cb", "https://127.0.0.1:5000/cb", "http://127.0.0.1/cb", "http://example.com:5000/cb",
                "http://10.0.0.1:5000/cb", "http://127.0.0.1.evil.example:5000/cb", "http://user@127.0.0.1:5000/cb",
                "http://127.0.0.1:5000/cb#fragment", "http://127.0.0.2:5000/cb", "http://[::2]:5000/cb", "http://0x7f000001:5000/cb",
                "file:///tmp/x", "//127.0.0.1:5000/cb", "",
            ] {
                let answer = try await Self.start(stack, redirectURI: refused, nonce: "n")
                #expect(answer.status == 400, "\(refused)")
                #expect(answer.error == "invalid_redirect_uri", "\(refused)")
                #expect(answer.json?["reason"] is String)
                #expect(answer.location == nil)
            }
            let missing = try await Browser().get(stack.serverURL + "/auth/apple/native?state=s&nonce=n")
            #expect(missing.status == 400 && missing.error == "invalid_redirect_uri")
            let noNonce = try await Browser().get(
                stack.serverURL + "/auth/apple/native?redirect_uri=\(Self.encode("http://127.0.0.1:5000/"))&state=s")
            #expect(noNonce.status == 400 && noNonce.error == "invalid_request")
            for accepted in ["http://127.0.0.1:5000/cb", "http://[::1]:5000/", "http://127.0.0.1:65535"] {
                #expect(try await Self.start(stack, redirectURI: accepted, nonce: "n").status == 302, "\(accepted)")
            }
        }
    }
}

import AppleSignIn
import Foundation
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import AppleIDEmulator

/// Request capture (`GET /emulator/admin/requests`): what each request to Apple's endpoints was and got,
/// per client id, without a secret; bounded, and cleared by a reset.
@Suite("Request capture")
struct RequestCaptureTests {
    static func requests(_ emulator: RunningEmulator, _ query: String = "") async throws -> HTTPResult {
        try await emulator.http.get("/emulator/admin/requests" + query, headers: FailureInjectionTests.admin)
    }

    @Test("a web sign-in and its code's redemption are listed for the client: grant, redirect URI, the secret's header and claims, status")
    func listsTheRedemption() async throws {
        try await RunningEmulator.with { emulator in
            let page = try await WebFlow.signIn(emulator)
            let code = try #require(WebFlow.hiddenInputs(page.body)["code"])
            let secret = try await emulator.secret(clientID: Fixture.servicesID)
            let fields = [
                ("client_id", Fixture.servicesID), ("client_secret", secret), ("grant_type", "authorization_code"), ("code", code),
                ("redirect_uri", Fixture.redirectURI),
            ]
            let exchanged = try await emulator.http.postForm("/auth/token", fields)
            #expect(exchanged.status == 200)
            let refreshToken = try #require(exchanged.json?["refresh_token"] as? String)
            let refreshed = try await emulator.http.postForm(
                "/auth/token",
                [("client_id", Fixture.servicesID), ("client_secret", secret), ("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
            #expect(refreshed.status == 200)
            let replay = try await emulator.http.postForm("/auth/token", fields)
            #expect(replay.error == "invalid_grant")

            let listed = try await Self.requests(emulator, "?client_id=\(Fixture.servicesID)")
            #expect(listed.status == 200)
            let requests = listed.json?["requests"] as? [[String: Any]] ?? []
            #expect(requests.map { $0["path"] as? String } == ["/auth/authorize", "/auth/token", "/auth/token", "/auth/token"])
            let token = requests[1]
            #expect(token["method"] as? String == "POST" && token["grant_type"] as? String == "authorization_code")
            #expect(token["redirect_uri"] as? String == Fixture.redirectURI && token["status"] as? Int == 200 && token["error"] is NSNull)
            let captured = try #require(token["client_secret"] as? [String: Any])
            #expect((captured["header"] as? [String: Any])?["kid"] as? String == Fixture.teamA.keyID)
            let claims = try #require(captured["claims"] as? [String: Any])
            #expect(claims["iss"] as? String == Fixture.teamA.teamID && claims["sub"] as? String == Fixture.servicesID)
            let lifetime = (claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0)
            #expect(lifetime > 0 && lifetime <= 15_777_000, "a client secret that lives under six months")
            #expect(requests[2]["grant_type"] as? String == "refresh_token")
            #expect(requests[3]["status"] as? Int == 400 && requests[3]["error"] as? String == "invalid_grant")
            #expect((requests[0]["received_at"] as? Double ?? 0) > 1_700_000_000)

            // Never a code, a token, a password, or the client secret's signature.
            let signature = try #require(secret.split(separator: ".").last)
            let accessToken = try #require(exchanged.json?["access_token"] as? String)
            for value in [code, refreshToken, accessToken, Fixture.alice.password, String(signature), secret] {
                #expect(!listed.body.contains(value))
            }
            #expect(!listed.body.contains("password") && !listed.body.contains("signature"))
        }
    }

    @Test("keys and discovery are listed without a client id; a filter by client id leaves them out; a reset forgets everything")
    func filterAndReset() async throws {
        try await RunningEmulator.with { emulator in
            _ = try await emulator.http.get("/auth/keys")
            _ = try await emulator.http.get("/.well-known/openid-configuration")
            _ = try await emulator.http.get("/emulator/admin/clock", headers: FailureInjectionTests.admin)
            #expect(try await DeviceSignInTests.authorize(emulator).status == 200)
            let all = try await Self.requests(emulator).json?["requests"] as? [[String: Any]] ?? []
            #expect(
                all.map { $0["path"] as? String } == ["/auth/keys", "/.well-known/openid-configuration"], "admin and device requests are not Apple's")
            #expect(all.allSatisfy { $0["client_id"] is NSNull })
            #expect((try await Self.requests(emulator, "?client_id=\(Fixture.bundleID)").json?["requests"] as? [Any])?.isEmpty == true)
            #expect(try await FixtureAPITests.post(emulator, "reset", "{}").status == 200)
            #expect((try await Self.requests(emulator).json?["requests"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("a browser gets the requests as a page, newest first, filtered by client id, its values escaped, never a secret's signature")
    func page() async throws {
        try await RunningEmulator.with { emulator in
            let secret = try await emulator.secret(clientID: Fixture.servicesID)
            let refused = try await emulator.http.postForm(
                "/auth/token",
                [
                    ("client_id", Fixture.servicesID), ("client_secret", secret), ("grant_type", "authorization_code"), ("code", "nope"),
                    ("redirect_uri", "https://example.com/<b>hostile</b>"),
                ])
            #expect(refused.error == "invalid_grant")
            _ = try await emulator.http.get("/auth/keys")
            let browser = FailureInjectionTests.admin + [("Accept", "text/html,application/xhtml+xml;q=0.9")]
            let page = try await emulator.http.get("/emulator/admin/requests?client_id=\(Fixture.servicesID)", headers: browser)
            #expect(page.status == 200)
            #expect(page.headers.first(name: "content-type")?.hasPrefix("text/html") == true)
            #expect(page.body.contains(#"<table id="requests">"#) && page.body.contains("POST /auth/token"))
            #expect(page.body.contains("invalid_grant") && page.body.contains(Fixture.teamA.keyID))
            #expect(page.body.contains("&lt;b&gt;hostile&lt;/b&gt;") && !page.body.contains("<b>hostile"), "values are escaped")
            #expect(!page.body.contains("/auth/keys"), "the filter leaves other clients' and client-less requests out")
            let claims = CapturedClientSecret(secret: secret)
            let lifetime = try #require(claims.lifetime)
            #expect(page.body.contains("lives " + CapturedRequest.describe(seconds: lifetime)), "the secret's lifetime is shown")
            let signature = try #require(secret.split(separator: ".").last)
            #expect(!page.body.contains(String(signature)))
            let all = try await emulator.http.get("/emulator/admin/requests", headers: browser)
            let keys = try #require(all.body.range(of: "GET /auth/keys")), token = try #require(all.body.range(of: "POST /auth/token"))
            #expect(keys.lowerBound < token.lowerBound, "newest first")
            #expect(try await FixtureAPITests.post(emulator, "reset", "{}").status == 200)
            #expect(try await emulator.http.get("/emulator/admin/requests", headers: browser).body.contains(#"id="no-requests""#))
        }
    }

    @Test("an injected failure's answer is what is captured (status and error code)")
    func capturesInjectedAnswers() async throws {
        try await RunningEmulator.with { emulator in
            #expect(try await FailureInjectionTests.inject(emulator, #"{"kind": "token_server_error", "status": 502}"#).status == 200)
            _ = try await FailureInjectionTests.redeem(emulator, try await FailureInjectionTests.deviceCode(emulator))
            let requests = try await Self.requests(emulator, "?client_id=\(Fixture.bundleID)").json?["requests"] as? [[String: Any]] ?? []
            #expect(requests.count == 1 && requests.first?["status"] as? Int == 502 && requests.first?["error"] as? String == "server_error")
        }
    }

    @Test("capture keeps the last N requests, and a client secret that is not a JWS keeps nothing of it")
    func bounded() {
        let capture = RequestCapture(capacity: 3)
        for index in 1...5 {
            capture.record { id in
                CapturedRequest(
                    id: id, receivedAt: Double(index), method: "POST", path: "/auth/token", clientID: "c\(index % 2)", grantType: nil,
                    redirectURI: nil, clientSecret: CapturedClientSecret(secret: "not-a-jws"), status: 200, error: nil)
            }
        }
        #expect(capture.list().map(\.id) == [3, 4, 5])
        #expect(capture.list(clientID: "c1").map(\.id) == [3, 5])
        #expect(capture.list().first?.clientSecret == CapturedClientSecret(secret: "x.y.z"))
        #expect(CapturedClientSecret(secret: "x.y.z").header == nil && CapturedClientSecret(secret: "x.y.z").claims == nil)
        let long = String(repeating: "a", count: 600)
        #expect(CapturedRequest.bounded(long)?.count == CapturedRequest.maximumFieldLength)
    }

    @Test("an unreadable client secret is listed as {\"header\": null, \"claims\": null}, not {}")
    func unreadableSecretHasNullParts() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let unreadable = String(decoding: try encoder.encode(CapturedClientSecret(secret: "not-a-jws")), as: UTF8.self)
        #expect(unreadable == #"{"claims":null,"header":null}"#)
        let record = CapturedRequest(
            id: 1, receivedAt: 1, method: "POST", path: "/auth/token", clientID: nil, grantType: nil, redirectURI: nil,
            clientSecret: CapturedClientSecret(secret: "x.y.z"), status: 400, error: "invalid_client")
        let listed = try #require(try JSONSerialization.jsonObject(with: try encoder.encode(record)) as? [String: Any])
        let secret = try #require(listed["client_secret"] as? [String: Any])
        #expect(secret.keys.sorted() == ["claims", "header"] && secret.values.allSatisfy { $0 is NSNull })
    }
}

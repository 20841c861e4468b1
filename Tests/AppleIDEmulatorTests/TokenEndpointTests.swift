import AppleSignIn
import Crypto
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import AppleIDEmulator

@Suite("/auth/token and /auth/revoke")
struct TokenEndpointTests {
    /// A fresh code from a web sign-in.
    static func code(_ emulator: RunningEmulator, mode: String = "form_post") async throws -> String {
        let page = try await WebFlow.signIn(emulator)
        return try #require(WebFlow.hiddenInputs(page.body)["code"])
    }

    static func exchange(
        _ emulator: RunningEmulator, code: String, secret: String, clientID: String = Fixture.servicesID, redirectURI: String? = Fixture.redirectURI
    ) async throws -> HTTPResult {
        var fields = [("client_id", clientID), ("client_secret", secret), ("grant_type", "authorization_code"), ("code", code)]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        return try await emulator.http.postForm("/auth/token", fields)
    }

    @Test(
        "A client secret that is wrong in any way is invalid_client",
        arguments: [
            "foreign key", "unknown kid", "other team iss", "other client sub", "six months and a day", "expired", "wrong aud", "HS256",
            "DER signature", "tampered", "no kid", "future iat", "not a JWT",
        ])
    func invalidClient(_ forgery: String) async throws {
        try await RunningEmulator.with { emulator in
            let code = try await Self.code(emulator)
            var secret = ForgedSecret(now: emulator.clock.now)
            switch forgery {
            case "foreign key": secret.key = P256.Signing.PrivateKey()
            case "unknown kid": secret.kid = "KEYZZZZZZZ"
            case "other team iss":
                secret.iss = Fixture.teamB.teamID
                secret.kid = Fixture.teamB.keyID
                secret.key = Fixture.teamB.privateKey
            case "other client sub": secret.sub = Fixture.bundleID
            case "six months and a day": secret.exp = secret.iat + 15_777_000 + 86_400
            case "expired":
                secret.iat -= 7200
                secret.exp = secret.iat + 3600
            case "wrong aud": secret.aud = "https://example.com"
            case "HS256": secret.alg = "HS256"
            case "DER signature": secret.derSignature = true
            case "no kid": secret.kid = nil
            case "future iat":
                secret.iat += 3600
                secret.exp = secret.iat + 3600
            default: break
            }
            var jwt = secret.jwt
            if forgery == "tampered" {
                let parts = jwt.split(separator: ".")
                let claims = ForgedSecret.encode(
                    Data(#"{"iss":"TEAMAAAAAA","sub":"com.example.app.web","aud":"https://appleid.apple.com","iat":1,"exp":99999999999}"#.utf8))
                jwt = parts[0] + "." + claims + "." + parts[2]
            }
            if forgery == "not a JWT" { jwt = "not-a-jwt" }
            let result = try await Self.exchange(emulator, code: code, secret: jwt)
            #expect(result.status == 400)
            #expect(result.error == "invalid_client")
            let description = (result.json?["error_description"] as? String) ?? ""
            #expect(!description.contains(jwt))
            // The code was not spent by the refused attempt.
            let good = try await Self.exchange(emulator, code: code, secret: ForgedSecret(now: emulator.clock.now).jwt)
            #expect(good.status == 200)
        }
    }

    @Test("A secret living exactly six months is accepted, as is the toolkit's maximum")
    func sixMonths() async throws {
        try await RunningEmulator.with { emulator in
            let code = try await Self.code(emulator)
            let result = try await Self.exchange(emulator, code: code, secret: ForgedSecret(now: emulator.clock.now, lifetime: 15_777_000).jwt)
            #expect(result.status == 200)
        }
    }

    @Test("Codes are single use, expire after five minutes, and are bound to client and redirect URI")
    func codeRules() async throws {
        let clock = TestClock()
        try await RunningEmulator.with(clock: clock) { emulator in
            let secret = ForgedSecret(now: clock.now).jwt
            let code = try await Self.code(emulator)
            #expect(try await Self.exchange(emulator, code: code, secret: secret).status == 200)
            let reused = try await Self.exchange(emulator, code: code, secret: secret)
            #expect(reused.error == "invalid_grant")

            let wrongRedirect = try await Self.exchange(
                emulator, code: try await Self.code(emulator), secret: secret, redirectURI: "https://app.example.com/other")
            #expect(wrongRedirect.error == "invalid_grant")
            let noRedirect = try await Self.exchange(emulator, code: try await Self.code(emulator), secret: secret, redirectURI: nil)
            #expect(noRedirect.error == "invalid_grant")
            let emptyRedirect = try await Self.exchange(emulator, code: try await Self.code(emulator), secret: secret, redirectURI: "")
            #expect(emptyRedirect.error == "invalid_grant")

            var appSecret = ForgedSecret(now: clock.now)
            appSecret.sub = Fixture.bundleID
            let otherClient = try await Self.exchange(
                emulator, code: try await Self.code(emulator), secret: appSecret.jwt, clientID: Fixture.bundleID)
            #expect(otherClient.error == "invalid_grant")

            #expect(try await Self.exchange(emulator, code: "c0000.0.aaaa.unknown", secret: secret).error == "invalid_grant")

            let expiring = try await Self.code(emulator)
            clock.advance(by: 299)
            let inTime = try await Self.exchange(emulator, code: expiring, secret: ForgedSecret(now: clock.now).jwt)
            #expect(inTime.status == 200)
            let late = try await Self.code(emulator)
            clock.advance(by: 301)
            let expired = try await Self.exchange(emulator, code: late, secret: ForgedSecret(now: clock.now).jwt)
            #expect(expired.error == "invalid_grant")
            #expect((expired.json?["error_description"] as? String)?.contains("expired") == true)
        }
    }

    @Test("Request errors: missing or unknown grant_type, missing code, wrong content type, unknown client, bad scope")
    func requestErrors() async throws {
        try await RunningEmulator.with { emulator in
            let secret = ForgedSecret(now: emulator.clock.now).jwt
            let base = [("client_id", Fixture.servicesID), ("client_secret", secret)]
            #expect(try await emulator.http.postForm("/auth/token", base).error == "invalid_request")
            #expect(try await emulator.http.postForm("/auth/token", base + [("grant_type", "password")]).error == "unsupported_grant_type")
            #expect(try await emulator.http.postForm("/auth/token", base + [("grant_type", "authorization_code")]).error == "invalid_request")
            #expect(
                try await emulator.http.postForm("/auth/token", base + [("grant_type", "refresh_token"), ("refresh_token", "r123")]).error
                    == "invalid_grant")
            #expect(
                try await emulator.http.postForm("/auth/token", base + [("grant_type", "client_credentials"), ("scope", "email")]).error
                    == "invalid_scope"
            )
            let unknown = try await emulator.http.postForm(
                "/auth/token", [("client_id", "com.unknown"), ("client_secret", secret), ("grant_type", "authorization_code"), ("code", "x")])
            #expect(unknown.error == "invalid_client")
            let json = try await emulator.http.send(
                .POST, "/auth/token", headers: [("Content-Type", "application/json")], body: Array(#"{"grant_type":"authorization_code"}"#.utf8))
            #expect(json.status == 400)
            #expect(json.error == "invalid_request")
            let revokeWithoutToken = try await emulator.http.postForm("/auth/revoke", base)
            #expect(revokeWithoutToken.error == "invalid_request")
            let revokeUnknown = try await emulator.http.postForm(
                "/auth/revoke", base + [("token", "r-unknown"), ("token_type_hint", "refresh_token")])
            #expect(revokeUnknown.status == 200)
            #expect(revokeUnknown.body.isEmpty)
            let revokeBadSecret = try await emulator.http.postForm(
                "/auth/revoke", [("client_id", Fixture.servicesID), ("client_secret", "x.y.z"), ("token", "r")])
            #expect(revokeBadSecret.error == "invalid_client")
        }
    }

    @Test("Revoking the access token also ends the grant and the refresh token")
    func revokeAccessToken() async throws {
        try await RunningEmulator.with { emulator in
            let tokens = try await emulator.client().exchangeCode(
                try await Self.code(emulator), clientID: Fixture.servicesID, redirectURI: URL(string: Fixture.redirectURI)!)
            try await emulator.client().revoke(tokens.accessToken, hint: .accessToken, clientID: Fixture.servicesID)
            do {
                _ = try await emulator.client().validateRefreshToken(tokens.refreshToken!, clientID: Fixture.servicesID)
                Issue.record("the refresh token still works")
            } catch {
                #expect((error as? AppleIDClientError)?.isInvalidGrant == true)
            }
        }
    }
}

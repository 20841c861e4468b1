import AppleSignIn
import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("Web sign-in through /auth/authorize")
struct WebSignInTests {
    @Test("GET shows the sign-in form with the original parameters as hidden fields, in English by default")
    func signInPage() async throws {
        try await RunningEmulator.with { emulator in
            let query = FormURLComponent.encode(fields: WebFlow.parameters())
            let page = try await emulator.http.get("/auth/authorize?" + query)
            #expect(page.status == 200)
            #expect(page[header: "Content-Type"]?.hasPrefix("text/html") == true)
            #expect(page.body.contains(#"<html lang="en">"#))
            #expect(page.body.contains(#"name="account_name""#))
            #expect(page.body.contains(#"name="password""#))
            #expect(page.body.contains(#"<label for="account_name">"#))
            let hidden = WebFlow.hiddenInputs(page.body)
            #expect(hidden["client_id"] == Fixture.servicesID)
            #expect(hidden["redirect_uri"] == Fixture.redirectURI)
            #expect(hidden["state"] == "state-123")
            #expect(hidden["nonce"] == "nonce-456")
            #expect(hidden["scope"] == "name email")
            #expect(!page.body.contains("<link") && !page.body.contains("src=") && !page.body.contains("url("))  // no external assets
            #expect(page[header: "Content-Security-Policy"]?.contains("default-src 'none'") == true)
        }
    }

    @Test("Accept-Language zh-Hans renders the pages in Simplified Chinese")
    func chinese() async throws {
        try await RunningEmulator.with { emulator in
            let page = try await emulator.http.get(
                "/auth/authorize?" + FormURLComponent.encode(fields: WebFlow.parameters()), headers: [("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.8")]
            )
            #expect(page.body.contains(#"<html lang="zh-Hans">"#))
            #expect(page.body.contains("使用 Apple ID 登录"))
            let english = try await emulator.http.get(
                "/auth/authorize?" + FormURLComponent.encode(fields: WebFlow.parameters()), headers: [("Accept-Language", "fr-FR, en;q=0.5")]
            )
            #expect(english.body.contains("Sign in with Apple ID"))
        }
    }

    @Test("Sign-in, then consent, then continue: a form_post page that submits itself with code, id_token, state and user")
    func stepByStep() async throws {
        try await RunningEmulator.with { emulator in
            let signIn = try await emulator.http.postForm(
                "/auth/authorize", WebFlow.parameters() + [("account_name", Fixture.alice.email), ("password", Fixture.alice.password)]
            )
            #expect(signIn.status == 200)
            #expect(signIn.body.contains(#"name="email_choice" value="hide""#))
            #expect(signIn.body.contains("@private.icloud.com"))
            #expect(signIn.body.contains(#"name="first_name" value="Alice""#))
            #expect(!signIn.body.contains(Fixture.alice.password))
            let hidden = WebFlow.hiddenInputs(signIn.body)
            let session = try #require(hidden["session"])
            let consent = try await emulator.http.postForm(
                "/auth/authorize",
                WebFlow.parameters() + [
                    ("session", session), ("first_name", "Ally"), ("last_name", "Seed"), ("email_choice", "hide"), ("action", "continue"),
                ]
            )
            #expect(consent.status == 200)
            #expect(WebFlow.formAction(consent.body) == Fixture.redirectURI)
            #expect(consent.body.contains("<script>document.getElementById('apple-response').submit();</script>"))
            let response = try AuthorizationResponse(fields: WebFlow.hiddenInputs(consent.body).map { ($0.key, $0.value) })
            #expect(response.state == "state-123")
            let user = try #require(response.user)
            #expect(user.name?.firstName == "Ally")
            #expect(user.name?.lastName == "Seed")
            #expect(user.email?.hasSuffix("@private.icloud.com") == true)
            let token = try await emulator.verifier().verify(
                try #require(response.idToken), nonceClaim: "nonce-456", authorizationCode: response.code)
            #expect(token.email == user.email)
            #expect(token.isPrivateEmail == true)
            #expect(token.realUserStatus == nil)
        }
    }

    @Test("One POST with every field completes; the id_token is Apple-shaped and verifies with the AppleSignIn toolkit")
    func onePost() async throws {
        try await RunningEmulator.with { emulator in
            let page = try await WebFlow.signIn(emulator)
            #expect(page.status == 200)
            let fields = WebFlow.hiddenInputs(page.body)
            let code = try #require(fields["code"])
            #expect(code.hasPrefix("c"))
            let idToken = try #require(fields["id_token"])
            let claims = WebFlow.claims(idToken)
            let subject = try #require(claims["sub"] as? String)
            #expect(subject.range(of: #"^[0-9]{6}\.[0-9a-f]{32}\.[0-9]{4}$"#, options: .regularExpression) != nil)
            #expect(claims["email_verified"] as? String == "true")
            #expect(claims["is_private_email"] as? String == "false")
            #expect(claims["email"] as? String == Fixture.alice.email)
            #expect(claims["nonce_supported"] as? Bool == true)
            #expect(claims["auth_time"] is NSNumber)
            #expect(claims["real_user_status"] == nil)
            #expect(claims["aud"] as? String == Fixture.servicesID)
            #expect(WebFlow.header(idToken)["alg"] as? String == "RS256")
            let token = try await emulator.verifier().verify(idToken, nonceClaim: "nonce-456", authorizationCode: code)
            #expect(token.subject == subject)
            let user = try #require(fields["user"])
            #expect(user == #"{"email":"alice@example.org","name":{"firstName":"Alice","lastName":"Appleseed"}}"#)

            // The code exchange, by the toolkit's REST client with a real client secret.
            let tokens = try await emulator.client().exchangeCode(code, clientID: Fixture.servicesID, redirectURI: URL(string: Fixture.redirectURI)!)
            let refreshToken = try #require(tokens.refreshToken)
            #expect(tokens.tokenType == "Bearer")
            #expect(tokens.expiresIn == 3600)
            let exchanged = try await emulator.verifier().verify(try #require(tokens.idToken), nonceClaim: "nonce-456")
            #expect(exchanged.subject == subject)
            #expect(WebFlow.claims(tokens.idToken!)["at_hash"] as? String == leftHalfHash(tokens.accessToken))

            // A returning user: no consent, no user.
            let again = try await WebFlow.signIn(emulator)
            #expect(WebFlow.hiddenInputs(again.body)["user"] == nil)
            let againToken = try await emulator.verifier().verify(WebFlow.hiddenInputs(again.body)["id_token"]!, nonceClaim: "nonce-456")
            #expect(againToken.subject == subject)

            // Refresh works until /auth/revoke, which also ends the grant.
            let refreshed = try await emulator.client().validateRefreshToken(refreshToken, clientID: Fixture.servicesID)
            #expect(refreshed.refreshToken == nil)
            #expect(try await emulator.verifier().verify(refreshed.idToken!).subject == subject)
            try await emulator.client().revoke(refreshToken, clientID: Fixture.servicesID)
            await #expect(throws: AppleIDClientError.self) {
                _ = try await emulator.client().validateRefreshToken(refreshToken, clientID: Fixture.servicesID)
            }
            let afterRevoke = try await WebFlow.signIn(emulator)
            #expect(WebFlow.hiddenInputs(afterRevoke.body)["user"] != nil)
        }
    }

    @Test("A returning user who only signs in sees a Continue step without name or email fields")
    func returningUserContinue() async throws {
        try await RunningEmulator.with { emulator in
            _ = try await WebFlow.signIn(emulator)
            let page = try await emulator.http.postForm(
                "/auth/authorize", WebFlow.parameters() + [("account_name", Fixture.alice.email), ("password", Fixture.alice.password)]
            )
            #expect(page.body.contains(#"name="action" value="continue""#))
            #expect(!page.body.contains(#"name="first_name""#))
            #expect(!page.body.contains(#"name="email_choice""#))
        }
    }

    @Test("query and fragment response modes redirect with the code (and the id_token in the fragment)")
    func redirects() async throws {
        try await RunningEmulator.with { emulator in
            let query = try await WebFlow.signIn(emulator, parameters: WebFlow.parameters(responseType: "code", responseMode: "query", scope: nil))
            #expect(query.status == 302)
            let location = try #require(query[header: "Location"])
            #expect(location.hasPrefix(Fixture.redirectURI + "?"))
            let queryFields = WebFlow.fields(of: location.split(separator: "?", maxSplits: 1)[1])
            #expect(queryFields["code"] != nil)
            #expect(queryFields["state"] == "state-123")
            #expect(queryFields["id_token"] == nil)

            let fragment = try await WebFlow.signIn(emulator, parameters: WebFlow.parameters(responseMode: "fragment", scope: nil))
            #expect(fragment.status == 302)
            let fragmentLocation = try #require(fragment[header: "Location"])
            let fragmentFields = WebFlow.fields(of: fragmentLocation.split(separator: "#", maxSplits: 1)[1])
            #expect(fragmentFields["id_token"] != nil)
            _ = try await emulator.verifier().verify(fragmentFields["id_token"]!, nonceClaim: "nonce-456", authorizationCode: fragmentFields["code"])
        }
    }

    @Test("Cancel returns error=user_cancelled_authorize with the state")
    func cancel() async throws {
        try await RunningEmulator.with { emulator in
            let page = try await emulator.http.postForm("/auth/authorize", WebFlow.parameters() + [("action", "cancel")])
            let fields = WebFlow.hiddenInputs(page.body)
            #expect(fields["error"] == "user_cancelled_authorize")
            #expect(fields["state"] == "state-123")
            #expect(fields["code"] == nil)
            #expect(throws: AuthorizationResponseError.self) { try AuthorizationResponse(fields: fields.map { ($0.key, $0.value) }) }
            let redirect = try await emulator.http.postForm(
                "/auth/authorize", WebFlow.parameters(responseType: "code", responseMode: "query", scope: nil) + [("action", "cancel")]
            )
            #expect(redirect[header: "Location"] == Fixture.redirectURI + "?error=user_cancelled_authorize&state=state-123")
        }
    }

    @Test("A wrong password shows the sign-in form again with an error and no code")
    func wrongPassword() async throws {
        try await RunningEmulator.with { emulator in
            let page = try await emulator.http.postForm(
                "/auth/authorize", WebFlow.parameters() + [("account_name", Fixture.alice.email), ("password", "nope"), ("action", "continue")]
            )
            #expect(page.status == 401)
            #expect(page.body.contains("role=\"alert\""))
            #expect(WebFlow.hiddenInputs(page.body)["code"] == nil)
            #expect(page.body.contains(#"name="password""#))
        }
    }

    @Test(
        "Bad requests get an error page: never a sign-in form, never a redirect",
        arguments: [
            ([("client_id", "com.unknown.web")], "invalid_client"),
            ([("client_id", Fixture.bundleID)], "invalid_client"),
            ([("redirect_uri", "https://evil.example.net/callback")], "invalid_request"),
            ([("response_mode", "query")], "invalid_request"),
            ([("response_type", "id_token")], "invalid_request"),
            ([("response_type", "token")], "invalid_request"),
            ([("response_mode", "post")], "invalid_request"),
            ([("scope", "name phone")], "invalid_scope"),
            ([("client_id", "")], "invalid_request"),
        ])
    func badRequests(overrides: [(String, String)], code: String) async throws {
        try await RunningEmulator.with { emulator in
            var parameters = WebFlow.parameters()
            for (name, value) in overrides {
                parameters.removeAll { $0.0 == name }
                parameters.append((name, value))
            }
            let page = try await emulator.http.get("/auth/authorize?" + FormURLComponent.encode(fields: parameters))
            #expect(page.status == 400)
            #expect(page[header: "Location"] == nil)
            #expect(!page.body.contains("<form"))
            #expect(page.body.contains(code))
            let post = try await WebFlow.signIn(emulator, parameters: parameters)
            #expect(post.status == 400)
            #expect(post[header: "Location"] == nil)
            #expect(!post.body.contains("<form"))
            let json = try await emulator.http.get(
                "/auth/authorize?" + FormURLComponent.encode(fields: parameters), headers: [("Accept", "application/json")])
            #expect(json.error == code)
        }
    }
}

func leftHalfHash(_ value: String) -> String {
    sha256LeftHalfBase64URL(value)
}

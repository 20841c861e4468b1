import Foundation
import JuiceEncodings
import JuiceTestSupport
import Testing

@testable import AppleSignIn

@Suite("Authorization request URLs and form_post responses")
struct AuthorizationTests {
    let redirect = URL(string: "https://app.example.com/auth/apple/callback")!

    @Test("the default request asks for code id_token by form_post with name and email, fresh state and nonce")
    func defaultRequest() throws {
        let request = AuthorizeRequest(clientID: "com.example.app.web", redirectURI: redirect)
        let url = try request.url(appleBaseURL: URL(string: "https://appleid.apple.com")!)
        let items = Dictionary(
            uniqueKeysWithValues: URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems!.map { ($0.name, $0.value ?? "") })
        #expect(url.path == "/auth/authorize")
        #expect(items["response_type"] == "code id_token")
        #expect(items["response_mode"] == "form_post")
        #expect(items["scope"] == "name email")
        #expect(items["redirect_uri"] == redirect.absoluteString)
        #expect(items["state"] == request.state)
        #expect(items["nonce"] == request.nonce)
        #expect(Base64URL.decode(request.state)?.count == 32)
        #expect(request.state != AuthorizeRequest(clientID: "x", redirectURI: redirect).state)
        #expect(url.absoluteString.contains("scope=name%20email"))
    }

    @Test("Apple's rules are enforced: scopes need form_post, id_token cannot go in the query")
    func rules() throws {
        var request = AuthorizeRequest(clientID: "a", redirectURI: redirect, responseMode: .query)
        #expect(throws: AuthorizeRequestError.self) { try request.url(appleBaseURL: AppleSignInConfiguration.appleBaseURL) }
        request.scopes = []
        #expect(throws: AuthorizeRequestError.self) { try request.url(appleBaseURL: AppleSignInConfiguration.appleBaseURL) }
        request.responseType = .code
        _ = try request.url(appleBaseURL: AppleSignInConfiguration.appleBaseURL)
        request.responseMode = .fragment
        request.responseType = .codeAndIDToken
        _ = try request.url(appleBaseURL: AppleSignInConfiguration.appleBaseURL)
    }

    @Test("random values come from the injected generator")
    func injectedRandomness() {
        var first = SeededGenerator(seed: 7)
        var second = SeededGenerator(seed: 7)
        #expect(AuthorizeRequest.randomValue(using: &first) == AuthorizeRequest.randomValue(using: &second))
    }

    @Test("a first-authorization form_post body yields code, token, state and the once-only name and email")
    func firstAuthorization() throws {
        let user = #"{"name":{"firstName":"Johnny","lastName":"Appleseed"},"email":"x7k2m9q4pd@privaterelay.appleid.com"}"#
        let body = FormURLEncoding.encode([("state", "s+1/="), ("code", "c.0.abc"), ("id_token", "eyJ.a.b"), ("user", user)])
        let response = try AuthorizationResponse(formBody: body)
        #expect(response.state == "s+1/=")
        #expect(response.code == "c.0.abc")
        #expect(response.idToken == "eyJ.a.b")
        #expect(response.user == AppleUserInfo(name: .init(firstName: "Johnny", lastName: "Appleseed"), email: "x7k2m9q4pd@privaterelay.appleid.com"))
    }

    @Test("a returning user's response has no user; only the granted scopes appear")
    func returning() throws {
        #expect(try AuthorizationResponse(formBody: "state=s&code=c&id_token=t").user == nil)
        let emailOnly = try AuthorizationResponse(formBody: FormURLEncoding.encode([("state", "s"), ("code", "c"), ("user", #"{"email":"a@b.c"}"#)]))
        #expect(emailOnly.user?.name == nil)
        #expect(emailOnly.user?.email == "a@b.c")
    }

    @Test("cancel carries its state; other Apple errors are typed")
    func errors() {
        do {
            _ = try AuthorizationResponse(formBody: "error=user_cancelled_authorize&state=abc")
            Issue.record("cancel accepted")
        } catch {
            #expect(error.code == .userCancelled)
            #expect(error.state == "abc")
        }
        #expect(throws: AuthorizationResponseError(.appleError, "")) { try AuthorizationResponse(formBody: "error=invalid_request&state=abc") }
    }

    @Test(
        "malformed bodies are refused precisely",
        arguments: [
            ("code=c", AuthorizationResponseError.Code.missingField),
            ("state=s", .missingField),
            ("state=s&code=", .missingField),
            ("state=s&code=c&user=%7Bnot-json", .malformedUser),
            ("state=s&code=c&user=%7B%22name%22%3A%22x%22%7D", .malformedUser),
            ("state=s&code=c&state=t", .malformedBody),
            ("state=%ZZ&code=c", .malformedBody),
            ("state=%FF%FE&code=c", .malformedBody),
        ])
    func malformed(body: String, code: AuthorizationResponseError.Code) {
        #expect(throws: AuthorizationResponseError(code, "")) { try AuthorizationResponse(formBody: body) }
    }
}

import Foundation
import JuiceEncodings
import JuiceTestSupport
import NIOHTTP1
import Testing

@testable import AppleIDEmulator

@Suite("Hostile input")
struct HostileInputTests {
    static let html = #""><script>alert(1)</script><img src=x onerror=alert(2)>'"#

    @Test("HTML in every reflected parameter comes back escaped, on every page")
    func escaped() async throws {
        try await RunningEmulator.with { emulator in
            let parameters = WebFlow.parameters(state: Self.html, nonce: Self.html)
            let signIn = try await emulator.http.get("/auth/authorize?" + FormURLComponent.encode(fields: parameters))
            #expect(signIn.status == 200)
            #expect(!signIn.body.contains("<script>alert"))
            #expect(!signIn.body.contains("<img src=x"))
            #expect(WebFlow.hiddenInputs(signIn.body)["state"] == Self.html)

            let wrong = try await emulator.http.postForm("/auth/authorize", parameters + [("account_name", Self.html), ("password", "x")])
            #expect(wrong.status == 401)
            #expect(!wrong.body.contains("<script>alert"))
            #expect(wrong.body.contains("&lt;script&gt;"))

            let done = try await WebFlow.signIn(emulator, parameters: parameters, firstName: Self.html, lastName: Self.html)
            #expect(done.status == 200)
            #expect(!done.body.contains("<script>alert"))
            #expect(!done.body.contains("<img src=x"))
            let fields = WebFlow.hiddenInputs(done.body)
            #expect(fields["state"] == Self.html)
            #expect(fields["user"]?.contains("<script>alert(1)</script>") == true)  // escaped in HTML, intact once decoded

            let errorPage = try await emulator.http.get(
                "/auth/authorize?" + FormURLComponent.encode(fields: WebFlow.parameters(clientID: Self.html, state: Self.html))
            )
            #expect(errorPage.status == 400)
            #expect(!errorPage.body.contains("<script>alert"))

            let portal = try await emulator.http.postForm("/account/sign-in", [("account_name", Self.html), ("password", "x")])
            #expect(!portal.body.contains("<script>alert"))
        }
    }

    @Test("Oversized fields and bodies get Apple-style 400s")
    func oversized() async throws {
        try await RunningEmulator.with { emulator in
            let longState = String(repeating: "s", count: 5000)
            let page = try await emulator.http.get("/auth/authorize?" + FormURLComponent.encode(fields: WebFlow.parameters(state: longState)))
            #expect(page.status == 400)
            #expect(page.body.contains("invalid_request"))
            let huge = String(repeating: "a", count: 70 * 1024)
            let token = try await emulator.http.postForm("/auth/token", [("grant_type", "authorization_code"), ("code", huge)])
            #expect(token.status == 400)
            #expect(token.error == "invalid_request")
            let bigSecret = try await emulator.http.postForm(
                "/auth/token",
                [("client_id", Fixture.servicesID), ("client_secret", String(repeating: "x", count: 6000)), ("grant_type", "refresh_token")]
            )
            #expect(bigSecret.error == "invalid_client")
            let bigName = try await WebFlow.signIn(emulator, firstName: String(repeating: "n", count: 65))
            #expect(bigName.status == 200)
            #expect(WebFlow.hiddenInputs(bigName.body)["code"] == nil)
            #expect(bigName.body.contains("role=\"alert\""))
        }
    }

    @Test("Invalid UTF-8 and bad percent-escapes are invalid_request, in queries and bodies")
    func invalidUTF8() async throws {
        try await RunningEmulator.with { emulator in
            let query = try await emulator.http.get("/auth/authorize?client_id=%FF%FE&redirect_uri=x")
            #expect(query.status == 400)
            #expect(!query.body.contains("<form"))
            let badEscape = try await emulator.http.get("/auth/authorize?client_id=%ZZ")
            #expect(badEscape.status == 400)
            let body = try await emulator.http.send(
                .POST, "/auth/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("grant_type=".utf8) + [0xFF, 0xFE, 0x80]
            )
            #expect(body.error == "invalid_request")
            let escaped = try await emulator.http.postForm("/auth/revoke", []).status
            #expect(escaped == 400)
            let raw = try await emulator.http.send(
                .POST, "/emulator/device/authorize", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("client_id=com.example.app&account_name=%C3%28".utf8)
            )
            #expect(raw.error == "invalid_request")
        }
    }

    @Test(
        "Wrong content types are refused without a 500",
        arguments: [
            "/auth/token", "/auth/revoke", "/auth/usermigrationinfo", "/auth/authorize", "/emulator/device/authorize",
            "/emulator/admin/revoke-consent", "/account/sign-in",
        ])
    func contentTypes(path: String) async throws {
        try await RunningEmulator.with { emulator in
            for contentType in ["application/json", "text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencodedx"] {
                let body = contentType == "application/json" && path.hasPrefix("/emulator/admin") ? Array("{not json".utf8) : Array("a=b".utf8)
                let result = try await emulator.http.send(
                    .POST, path, headers: [("Content-Type", contentType), ("Authorization", "Bearer \(Fixture.adminToken)")], body: body
                )
                #expect(result.status == 400 || result.status == 403, "\(contentType) on \(path) answered \(result.status)")
                #expect(result.status < 500)
            }
        }
    }
}

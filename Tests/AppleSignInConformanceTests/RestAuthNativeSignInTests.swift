import AppleIDEmulator
import Crypto
import Foundation
import JuiceTestSupport
import NIOHTTP1
import Testing

/// dj-rest-auth 7.2.0's `SocialLoginView` with django-allauth's Apple adapter (its usual mobile setup,
/// Fixtures/django/restauth_*.py) signs a native app in through the emulator. allauth's client redeems the
/// app's code with the bundle id *and* the view's `callback_url` as `redirect_uri`; Apple accepts that, and
/// so does the emulator (`CodeRedirectRule`).
@Suite("dj-rest-auth signs a native app in through the emulator", .serialized, .enabled(if: DjangoBackend.shouldRun(.restAuth)))
struct RestAuthNativeSignInTests {
    @Test("the app's code and identity token sign in; the code was redeemed once; the same Apple ID signs in again as the same user")
    func nativeSignIn() async throws {
        if let missing = DjangoBackend.missingModule(for: .restAuth) {
            Issue.record("JUICE_TEST_REQUIRE_ALL=1 requires dj-rest-auth, but python3 cannot import \(missing)")
            return
        }
        let teamKey = P256.Signing.PrivateKey()
        try await BackendEmulator.with(teamKey: teamKey) { emulator in
            let backend = DjangoBackend(site: .restAuth, port: try FreePort.pick(), applePort: emulator.port, teamKey: teamKey)
            try await backend.serving {
                let first = try await Self.signIn(emulator, backend)
                let user = try await Self.user(emulator, backend, key: first)
                #expect(user["email"] as? String == BackendEmulator.tester.email)

                let codes = try #require(try await emulator.issued()["codes"] as? [[String: Any]])
                #expect(codes.count == 1)
                #expect(codes.first?["used_at"] != nil, "dj-rest-auth redeemed the app's code at the emulator")

                let again = try await Self.signIn(emulator, backend)
                #expect(try await Self.user(emulator, backend, key: again)["pk"] as? Int == user["pk"] as? Int)
            }
        }
    }

    /// A fresh credential from the emulator, posted to dj-rest-auth's Apple view as an app posts it; the session key it answers.
    static func signIn(_ emulator: BackendEmulator, _ backend: DjangoBackend) async throws -> String {
        let credential = try await emulator.nativeCredential()
        let answer = try await emulator.http.postJSON(
            backend.url + "/api/auth/apple/",
            ["code": credential["authorizationCode"] as? String ?? "", "id_token": credential["identityToken"] as? String ?? ""])
        #expect(answer.status == 200, "dj-rest-auth answered \(answer.status): \(answer.body.prefix(500))")
        return try #require(answer.json?["key"] as? String, "no session key in \(answer.body.prefix(500))")
    }

    /// dj-rest-auth's `GET /api/auth/user/` for the session key.
    static func user(_ emulator: BackendEmulator, _ backend: DjangoBackend, key: String) async throws -> [String: Any] {
        let answer = try await emulator.http.get(backend.url + "/api/auth/user/", headers: [("Authorization", "Token \(key)")])
        #expect(answer.status == 200, "GET /api/auth/user/: \(answer.status) \(answer.body.prefix(500))")
        return answer.json ?? [:]
    }
}

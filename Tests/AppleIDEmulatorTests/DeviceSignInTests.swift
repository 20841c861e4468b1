import AppleSignIn
import Foundation
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("Device sign-in (/emulator/device/authorize)")
struct DeviceSignInTests {
    static func authorize(
        _ emulator: RunningEmulator, _ extra: [(String, String)] = [], account: EmulatorConfiguration.AppleID = Fixture.alice
    ) async throws -> HTTPResult {
        try await emulator.http.postForm(
            "/emulator/device/authorize",
            [
                ("client_id", Fixture.bundleID), ("account_name", account.email), ("password", account.password), ("scope", "name email"),
                ("nonce", "hashed-nonce"), ("state", "device-state"),
            ] + extra
        )
    }

    @Test("An Apple ID deleted after it signed in is refused at once by the same process (the kept active state is forgotten)")
    func deletedAfterSignIn() async throws {
        try await RunningEmulator.with { emulator in
            #expect(try await Self.authorize(emulator).status == 200)
            #expect(try await emulator.admin.postJSON("/emulator/admin/delete-apple-id", ["apple_id": Fixture.alice.email]).status == 200)
            let refused = try await Self.authorize(emulator)
            #expect(refused.status == 401)
            #expect(refused.error == "invalid_credentials")
        }
    }

    @Test("Returns the credential an iPhone would, with real_user_status 2 and once-only fields the first time only")
    func credential() async throws {
        try await RunningEmulator.with { emulator in
            let first = try await Self.authorize(emulator, [("first_name", "Al"), ("email_choice", "hide")])
            #expect(first.status == 200)
            let json = try #require(first.json)
            #expect(json["state"] as? String == "device-state")
            #expect(json["realUserStatus"] as? Int == 2)
            #expect(json["authorizedScopes"] as? [String] == ["name", "email"])
            let fullName = try #require(json["fullName"] as? [String: Any])
            #expect(fullName["givenName"] as? String == "Al")
            #expect(fullName["familyName"] as? String == "Appleseed")
            let email = try #require(json["email"] as? String)
            #expect(email.hasSuffix("@private.icloud.com"))
            let token = try await emulator.verifier().verify(try #require(json["identityToken"] as? String), nonceClaim: "hashed-nonce")
            #expect(token.subject == json["user"] as? String)
            #expect(token.realUserStatus == .likelyReal)
            #expect(token.audience == Fixture.bundleID)
            #expect(token.email == email)

            // The code is exchanged without a redirect_uri, by the app's bundle id.
            let code = try #require(json["authorizationCode"] as? String)
            let tokens = try await emulator.client().exchangeCode(code, clientID: Fixture.bundleID)
            #expect(tokens.refreshToken != nil)

            let second = try #require(try await Self.authorize(emulator).json)
            #expect(second["email"] == nil)
            #expect(second["fullName"] == nil)
            #expect(second["user"] as? String == json["user"] as? String)
            // A device code redeemed with a redirect_uri, as dj-rest-auth with allauth's Apple adapter, the apple-auth
            // npm package and the sign_in_with_apple example server send it: Apple accepts it, whatever it names
            // (CodeRedirectRule); a web code still needs its own.
            let withRedirect = try await emulator.http.postForm(
                "/auth/token",
                [
                    ("client_id", Fixture.bundleID), ("client_secret", try await emulator.secret(clientID: Fixture.bundleID)),
                    ("grant_type", "authorization_code"), ("code", try #require(second["authorizationCode"] as? String)),
                    ("redirect_uri", "https://backend.example.net/accounts/apple/login/callback/"),
                ]
            )
            #expect(withRedirect.status == 200, "\(withRedirect.body)")
            #expect(withRedirect.json?["id_token"] is String)
        }
    }

    @Test("Wrong password, a Services ID, bad scope, bad email choice and cancel are refused with Apple-style errors")
    func errors() async throws {
        try await RunningEmulator.with { emulator in
            let wrong = try await emulator.http.postForm(
                "/emulator/device/authorize", [("client_id", Fixture.bundleID), ("account_name", Fixture.alice.email), ("password", "wrong")]
            )
            #expect(wrong.status == 401)
            #expect(wrong.error == "invalid_credentials")
            // A field given twice is refused outright rather than guessed at.
            #expect(try await Self.authorize(emulator, [("client_id", Fixture.servicesID)]).error == "invalid_request")
            let services = try await emulator.http.postForm(
                "/emulator/device/authorize",
                [("client_id", Fixture.servicesID), ("account_name", Fixture.alice.email), ("password", Fixture.alice.password)]
            )
            #expect(services.error == "invalid_client")
            let scope = try await emulator.http.postForm(
                "/emulator/device/authorize",
                [("client_id", Fixture.bundleID), ("account_name", Fixture.alice.email), ("password", Fixture.alice.password), ("scope", "phone")]
            )
            #expect(scope.error == "invalid_scope")
            let choice = try await emulator.http.postForm(
                "/emulator/device/authorize",
                [
                    ("client_id", Fixture.bundleID), ("account_name", Fixture.alice.email), ("password", Fixture.alice.password),
                    ("email_choice", "<b>"),
                ]
            )
            #expect(choice.error == "invalid_request")
            let cancel = try await emulator.http.postForm("/emulator/device/authorize", [("client_id", Fixture.bundleID), ("action", "cancel")])
            #expect(cancel.error == "user_cancelled_authorize")
        }
    }
}

import Foundation
import JuiceStackSupport
import JuiceTestSupport
import Testing

@testable import JuiceServer

/// `/.well-known/passkey-endpoints` and `/.well-known/webauthn`, and ceremonies from a related origin.
@Suite("Passkey well-known files: endpoints, related origins; a listed related origin is accepted, an unlisted one refused")
struct PasskeyWellKnownTests {
    static let related = "https://juice-shop.example"

    @Test("passkey-endpoints names the account page; webauthn lists the related origins, or is 404 without any")
    func documents() async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let endpoints = try await Browser().get(stack.serverURL + "/.well-known/passkey-endpoints")
            #expect(endpoints.status == 200)
            #expect(endpoints[header: "Content-Type"] == "application/json")
            #expect(endpoints.json?["enroll"] as? String == stack.serverURL + "/account#passkeys")
            #expect(endpoints.json?["manage"] as? String == stack.serverURL + "/account#passkeys")
            let none = try await Browser().get(stack.serverURL + "/.well-known/webauthn")
            #expect(none.status == 404, "no related origins configured: nothing to list")
        }
    }

    @Test(
        "a ceremony from a listed related origin is accepted; an unlisted origin or a listed one's subdomain is refused", arguments: TestDatabase.all)
    func relatedOrigins(database: TestDatabase) async throws {
        try await StackEnvironment.with(database) { environment in
            var environment = environment
            environment.passkeyRelatedOrigins = [Self.related, "https://juice.example.net:8443"]
            try await JuiceStack.with(environment: environment) { stack in
                let document = try await Browser().get(stack.serverURL + "/.well-known/webauthn")
                #expect(document.status == 200 && document[header: "Content-Type"] == "application/json")
                #expect(document.json?["origins"] as? [String] == [Self.related, "https://juice.example.net:8443"])

                let token = try await PasskeyAPITests.signUp(stack, "related-fan")
                for origin in ["https://unlisted.example", "https://www.juice-shop.example", "http://juice-shop.example"] {
                    var stranger = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
                    let begin = try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token)
                    let refused = try await APIRequests.json(
                        stack, "POST", "/api/passkeys/registration", stranger.register(try PasskeyAPITests.options(begin), origin: origin),
                        bearer: token)
                    #expect(refused.status == 400 && refused.error == "origin_mismatch", "\(origin): \(refused.body)")
                }
                var authenticator = TestAuthenticator(rpID: PasskeyAPITests.rpID(stack))
                let begin = try await APIRequests.json(stack, "POST", "/api/passkeys/registration/options", bearer: token)
                let added = try await APIRequests.json(
                    stack, "POST", "/api/passkeys/registration", authenticator.register(try PasskeyAPITests.options(begin), origin: Self.related),
                    bearer: token)
                #expect(added.status == 201, "\(added.body)")
                let options = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
                let signIn = try await APIRequests.json(stack, "POST", "/api/auth/passkey", try authenticator.assert(options, origin: Self.related))
                #expect(signIn.status == 200, "\(signIn.body)")
                let next = try PasskeyAPITests.options(try await APIRequests.json(stack, "POST", "/api/auth/passkey/options"))
                let unlisted = try await APIRequests.json(
                    stack, "POST", "/api/auth/passkey", try authenticator.assert(next, origin: "https://unlisted.example"))
                #expect(unlisted.status == 400 && unlisted.error == "origin_mismatch", "\(unlisted.body)")
            }
        }
    }
}

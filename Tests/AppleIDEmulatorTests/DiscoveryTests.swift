import AppleSignIn
import Foundation
import JuiceTestSupport
import Testing

@testable import AppleIDEmulator

@Suite("Discovery and keys")
struct DiscoveryTests {
    @Test("openid-configuration names the issuer, the four endpoints and Apple's supported values")
    func openIDConfiguration() async throws {
        try await RunningEmulator.with { emulator in
            let result = try await emulator.http.get("/.well-known/openid-configuration")
            #expect(result.status == 200)
            let json = try #require(result.json)
            #expect(json["issuer"] as? String == emulator.baseURL)
            #expect(json["authorization_endpoint"] as? String == emulator.baseURL + "/auth/authorize")
            #expect(json["token_endpoint"] as? String == emulator.baseURL + "/auth/token")
            #expect(json["revocation_endpoint"] as? String == emulator.baseURL + "/auth/revoke")
            #expect(json["jwks_uri"] as? String == emulator.baseURL + "/auth/keys")
            #expect(json["response_modes_supported"] as? [String] == ["query", "fragment", "form_post"])
            #expect(json["id_token_signing_alg_values_supported"] as? [String] == ["RS256"])
            #expect(json["token_endpoint_auth_methods_supported"] as? [String] == ["client_secret_post"])
        }
    }

    @Test("--issuer https://appleid.apple.com makes the metadata and tokens say Apple's issuer")
    func appleIssuer() async throws {
        try await RunningEmulator.with(issuer: "https://appleid.apple.com") { emulator in
            let json = try #require(try await emulator.http.get("/.well-known/openid-configuration").json)
            #expect(json["issuer"] as? String == "https://appleid.apple.com")
            #expect(json["jwks_uri"] as? String == emulator.baseURL + "/auth/keys")
            let page = try await WebFlow.signIn(emulator)
            let idToken = try #require(WebFlow.hiddenInputs(page.body)["id_token"])
            let token = try await emulator.verifier().verify(idToken, nonceClaim: "nonce-456")
            #expect(token.issuer == "https://appleid.apple.com")
        }
    }

    @Test("/auth/keys publishes at least two RSA-2048 RS256 keys in Apple's shape")
    func keys() async throws {
        try await RunningEmulator.with { emulator in
            let result = try await emulator.http.get("/auth/keys")
            #expect(result.status == 200)
            let keys = try #require(result.json?["keys"] as? [[String: Any]])
            #expect(keys.count >= 2)
            for key in keys {
                #expect(key["kty"] as? String == "RSA")
                #expect(key["alg"] as? String == "RS256")
                #expect(key["use"] as? String == "sig")
                #expect(key["e"] as? String == "AQAB")
                let n = try #require(key["n"] as? String)
                #expect(n.count >= 342)  // 256 bytes, base64url
                #expect((key["kid"] as? String)?.isEmpty == false)
            }
        }
    }
}

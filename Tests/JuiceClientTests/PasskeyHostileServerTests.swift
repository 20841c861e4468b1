import Foundation
import Hummingbird
import HummingbirdTesting
import JuiceTestSupport
import NIOCore
import Testing

@testable import JuiceClient

/// A server (or something pretending to be one) whose passkey options are not what Juice sends: the
/// client refuses them with a typed error, and nothing it saves can spoil the store.
@Suite("Passkey options from a hostile server")
struct PasskeyHostileServerTests {
    /// A server answering the two option routes with `creation` and `request`.
    func withServer(creation: String, request: String, _ body: @Sendable (JuiceServerAPI) async throws -> Void) async throws {
        let router = Router()
        router.post("/api/passkeys/registration/options") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: creation))) }
        router.post("/api/auth/passkey/options") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: request))) }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let port = try #require(client.port)
            try await body(JuiceServerAPI(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)"))))
        }
    }

    static func creation(rp: String = "juice.test", challenge: String = "AAAA", user: String = "dXNlcg", excluded: String = "AQ") -> String {
        #"{"publicKey": {"challenge": "\#(challenge)", "rp": {"id": "\#(rp)", "name": "J"}, "user": {"id": "\#(user)", "name": "u", "displayName": "U"}, "excludeCredentials": [{"type": "public-key", "id": "\#(excluded)"}]}}"#
    }

    static func request(rp: String = "juice.test", challenge: String = "AAAA", allowed: String = "AQ") -> String {
        #"{"publicKey": {"challenge": "\#(challenge)", "rpId": "\#(rp)", "allowCredentials": [{"type": "public-key", "id": "\#(allowed)"}]}}"#
    }

    @Test(
        "options that are not base64url, or have no challenge, RP ID or user handle, are unexpectedResponse",
        arguments: [
            (creation(challenge: "not base64!"), request(challenge: "")),
            (creation(user: ""), request(rp: "")),
            (creation(excluded: "+/="), request(allowed: "%%")),
            (#"{"publicKey": {}}"#, #"{"publicKey": []}"#),
        ])
    func malformed(creation: String, request: String) async throws {
        try await withServer(creation: creation, request: request) { api in
            await #expect(throws: JuiceServerError.unexpectedResponse(status: 200, "")) { try await api.beginPasskeyRegistration(sessionToken: "t") }
            await #expect(throws: JuiceServerError.unexpectedResponse(status: 200, "")) { try await api.beginPasskeySignIn() }
        }
    }

    @Test("an RP ID over 253 bytes is refused before a key is made, so the store stays readable")
    func longRelyingPartyID() async throws {
        let long = String(repeating: "a", count: 254)
        try await withServer(creation: Self.creation(rp: long), request: Self.request(rp: long)) { api in
            try await TemporaryDirectory.with("passkey-hostile") { temp in
                let store = CredentialStore(directory: temp.url)
                let options = try await api.beginPasskeyRegistration(sessionToken: "t")
                #expect(options.relyingPartyIdentifier == long)
                #expect(options.excludedCredentials == [Data([1])])
                let provider = PlatformPublicKeyCredentialProvider(relyingPartyIdentifier: long, store: store)
                await #expect(throws: AuthorizationError.failed("")) {
                    try await options.registrationRequest(from: provider).perform(interactive: true)
                }
                #expect(try await store.passkeyCredentialIDs().isEmpty)
                let signIn = try await api.beginPasskeySignIn()
                #expect(signIn.allowedCredentials == [Data([1])])
            }
        }
    }
}

import Foundation
import JuiceTestSupport
import Testing

@testable import juice

/// The driver reads only what each step needs from an answer, but still refuses an answer that is not
/// the step's: a failed step counts as a failure, never as a sign-in.
@Suite("juice bench signin: each step's answer is checked")
struct BenchAnswerCheckTests {
    /// A sign-in whose server and emulator are both `url`.
    private static func signIn(at url: String) -> BenchSignIn {
        BenchSignIn(server: url, emulator: url, clientID: "com.example.app", appleIDs: ["appleseed@juice.test"], password: "juice")
    }

    private static let credential = BenchSignIn.DeviceCredential(
        identityToken: "header.claims.signature", authorizationCode: "c.code", nonce: "nonce", givenName: nil, familyName: nil, email: nil)

    @Test(
        "an answer of the wrong shape fails its step: a nonce that is a number, an empty nonce, a device answer without a code, a session without a token",
        arguments: [
            (#"{"nonce": 5}"#, "nonce"), (#"{"nonce": ""}"#, "nonce"), (#"{"identityToken": "t"}"#, "nonce"), ("not json", "nonce"),
        ])
    func wrongNonceAnswer(body: String, step: String) async throws {
        try await ScriptedHTTPServer.with(.json(status: 200, body: body)) { server in
            try await BenchSignIn.withBenchClient(concurrency: 1) { httpClient in
                let error = await #expect(throws: BenchSignInError.self) {
                    _ = try await Self.signIn(at: server.url("")).credential(httpClient)
                }
                #expect(error?.kind == step)
            }
        }
    }

    @Test("a device answer without an authorization code fails the device step")
    func deviceAnswerWithoutCode() async throws {
        // Every request gets this answer: the nonce step reads its nonce, the device step finds no code.
        try await ScriptedHTTPServer.with(.json(status: 200, body: #"{"nonce": "n", "identityToken": "t"}"#)) { server in
            try await BenchSignIn.withBenchClient(concurrency: 1) { httpClient in
                let error = await #expect(throws: BenchSignInError.self) {
                    _ = try await Self.signIn(at: server.url("")).credential(httpClient)
                }
                #expect(error?.kind == "device")
            }
        }
    }

    @Test("a session answer with an empty or missing token fails the apple step", arguments: [#"{"token": ""}"#, #"{"session": "s"}"#])
    func sessionWithoutToken(body: String) async throws {
        try await ScriptedHTTPServer.with(.json(status: 200, body: body)) { server in
            try await BenchSignIn.withBenchClient(concurrency: 1) { httpClient in
                let error = await #expect(throws: BenchSignInError.self) {
                    _ = try await Self.signIn(at: server.url("")).exchange(Self.credential, httpClient)
                }
                #expect(error?.kind == "apple")
            }
        }
    }

    @Test("a refusal names the status and the server's error and reason")
    func refusal() async throws {
        let body = #"{"error": "nonce_invalid", "reason": "the nonce was spent"}"#
        try await ScriptedHTTPServer.with(.json(status: 401, body: body)) { server in
            try await BenchSignIn.withBenchClient(concurrency: 1) { httpClient in
                let error = await #expect(throws: BenchSignInError.self) {
                    _ = try await Self.signIn(at: server.url("")).exchange(Self.credential, httpClient)
                }
                #expect(error?.kind == "apple")
                #expect(error?.description == "POST /api/auth/apple answered HTTP 401 (nonce_invalid: the nonce was spent)")
            }
        }
    }

    @Test("a refusal's words reach the terminal escaped: no control character of the server's gets through")
    func hostileRefusal() async throws {
        let body = #"{"error": "x\u001b]52;c;aGk=\u0007", "reason": "\u009b2J\u202e"}"#
        try await ScriptedHTTPServer.with(.json(status: 400, body: body)) { server in
            try await BenchSignIn.withBenchClient(concurrency: 1) { httpClient in
                let error = await #expect(throws: BenchSignInError.self) {
                    _ = try await Self.signIn(at: server.url("")).exchange(Self.credential, httpClient)
                }
                let text = try #require(error?.description)
                #expect(!text.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) }, "\(text)")
            }
        }
    }

    @Test("a failed step is counted by its kind and not timed as a sign-in")
    func failuresCounted() async throws {
        let timed = try await BenchSignIn.drive(count: 10, concurrency: 3, label: "sign-ins") { (index: Int) async throws(BenchSignInError) in
            if index % 2 == 1 { throw BenchSignInError(kind: "device", "refused") }
        }
        #expect(timed.latencies.count == 5)
        #expect(timed.failures == ["device": 5])
    }
}

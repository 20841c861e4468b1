import AppleIDEmulator
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import JuiceServer

/// Apple's token endpoint failing (the emulator's failure injection): `juice serve` refuses the sign-in
/// with a JSON error of its own, makes no account or session, and signs the next person in once Apple
/// answers again.
@Suite("Apple's token endpoint failing: the server refuses cleanly and recovers")
struct AppleOutageTests {
    /// What the database holds of sign-ins: Apple identities and sessions.
    static func traces(_ stack: JuiceStack) async throws -> (identities: Int, sessions: Int) {
        try await stack.withDatabase { database in
            try await database.read { sql in
                (
                    try await sql.select().column("client_id").from("apple_identities").all().count,
                    try await sql.select().column("id").from("sessions").all().count
                )
            }
        }
    }

    @Test(
        "token endpoint 503, invalid_client and malformed JSON: a JSON error of the server's own, nothing half made, then a sign-in works",
        arguments: [
            #"{"kind": "token_server_error", "client_id": "com.example.apple-samplecode.juice"}"#,
            #"{"kind": "token_invalid_client"}"#,
            #"{"kind": "token_malformed_json"}"#,
        ])
    func refusesCleanlyAndRecovers(failure: String) async throws {
        try await JuiceStack.with(database: .sqlite) { stack in
            let json = [("Content-Type", "application/json")]
            let added = try await Browser().send(.POST, stack.emulatorURL + "/emulator/admin/failures", headers: json, body: failure)
            #expect(added.status == 200, "\(added.body)")

            for _ in 0..<2 {
                let nonce = try await NativeFlow.nonce(stack)
                let credential = try await NativeFlow.deviceCredential(stack, nonce: nonce)
                let refused = try await NativeFlow.post(stack, NativeFlow.body(credential, nonce: nonce))
                #expect((400..<600).contains(refused.status), "\(refused.status) \(refused.body.prefix(300))")
                let code = try #require(refused.error, "a JSON error: \(refused.body.prefix(300))")
                #expect(["apple_error", "apple_unavailable", "invalid_code"].contains(code), "the server's own code, not a crash: \(code)")
                #expect(refused.status != 500)
                if failure.contains("token_server_error") {
                    // Apple failing is not Apple refusing the code: 503 apple_unavailable, whatever the 5xx's body says.
                    #expect(refused.status == 503 && code == "apple_unavailable", "\(refused.status) \(code)")
                }
                #expect(refused.json?["token"] == nil)
                #expect(refused.headers.first(name: "content-type")?.hasPrefix("application/json") == true)
            }
            let traces = try await Self.traces(stack)
            #expect(traces.identities == 0 && traces.sessions == 0, "no half-made account: \(traces)")

            let cleared = try await Browser().send(.DELETE, stack.emulatorURL + "/emulator/admin/failures", headers: json, body: "{}")
            #expect(cleared.json?["cleared"] as? Int == 1)
            let (token, account, _) = try await NativeFlow.signIn(stack)
            #expect(!token.isEmpty && account["email"] as? String == StackEnvironment.johnny.email)
            #expect(try await AppleFlow.me(stack, token: token).status == 200)
        }
    }
}

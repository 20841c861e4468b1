import AppleIDEmulator
import AppleSignIn
import Foundation
import JuiceTestSupport
import Testing

/// docs/emulator.md's failure injection examples are real: the Python one (requests + unittest) runs
/// against a running emulator, and the Swift one is this file's `swiftExample`; the docs show both verbatim.
@Suite("docs/emulator.md's failure injection examples run", .serialized)
struct FailureInjectionExampleTests {
    @Test(
        "the Python example passes against the emulator, and docs/emulator.md shows it verbatim", .timeLimit(.minutes(2)),
        .enabled(if: BrowserTools.requests || BrowserTools.requireAll, "python3 with requests is missing (scripts/test installs it)"))
    func pythonExample() async throws {
        try await DocsPythonExample.check("failure_injection_example.py", tests: 2)
    }

    @Test("the Swift example: Apple's token endpoint fails once, the redemption is captured, the code still redeems")
    func swiftExample() async throws {
        try await RunningEmulator.with { emulator in
            // docs:begin
            let admin = [("Authorization", "Bearer \(Fixture.adminToken)"), ("Content-Type", "application/json")]
            let failure = #"{"kind": "token_server_error", "client_id": "com.example.app.web", "count": 1}"#
            #expect(try await emulator.http.post("/emulator/admin/failures", json: failure, headers: admin).status == 200)

            let page = try await WebFlow.signIn(emulator)
            let code = try #require(WebFlow.hiddenInputs(page.body)["code"])
            let client = try emulator.client()
            await #expect(throws: AppleIDClientError.self) {  // Apple answered 503
                try await client.exchangeCode(code, clientID: "com.example.app.web", redirectURI: URL(string: Fixture.redirectURI))
            }
            // The failure was used up, and the code was not spent: a retry succeeds.
            _ = try await client.exchangeCode(code, clientID: "com.example.app.web", redirectURI: URL(string: Fixture.redirectURI))

            let captured = try await emulator.http.get("/emulator/admin/requests?client_id=com.example.app.web", headers: admin)
            let redemptions = (captured.json?["requests"] as? [[String: Any]] ?? []).filter { $0["path"] as? String == "/auth/token" }
            #expect(redemptions.map { $0["status"] as? Int } == [503, 200])
            let secret = redemptions.last?["client_secret"] as? [String: Any]
            let claims = secret?["claims"] as? [String: Any] ?? [:]
            #expect((claims["exp"] as? Int ?? .max) - (claims["iat"] as? Int ?? 0) <= 15_777_000)  // lives under six months
            // docs:end
        }
    }

    @Test("docs/emulator.md shows the Swift example verbatim")
    func swiftExampleInDocs() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(source.range(of: "// docs:begin\n"))
        let end = try #require(source.range(of: "            // docs:end"))
        let body = source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("            ") ? String($0.dropFirst(12)) : String($0) }.joined(separator: "\n")
        let docs = try String(contentsOf: DocsPythonExample.docs, encoding: .utf8)
        #expect(docs.contains(body), "docs/emulator.md must show the Swift example:\n\(body)")
    }
}

import AppleIDEmulator
import AppleSignIn
import Foundation
import JuiceProcesses
import JuiceTestSupport
import Testing

/// docs/emulator.md's failure injection examples are real: the Python one (requests + unittest) runs
/// against a running emulator, and the Swift one is this file's `swiftExample`; the docs show both verbatim.
@Suite("docs/emulator.md's failure injection examples run", .serialized)
struct FailureInjectionExampleTests {
    static let docs = BrowserTools.repository.appendingPathComponent("docs/emulator.md")
    static let python = BrowserTools.repository.appendingPathComponent("Tests/AppleIDEmulatorTests/Fixtures/failure_injection_example.py")

    @Test(
        "the Python example passes against the emulator, and docs/emulator.md shows it verbatim", .timeLimit(.minutes(2)),
        .enabled(if: BrowserTools.requests || BrowserTools.requireAll, "python3 with requests is missing (scripts/test installs it)"))
    func pythonExample() async throws {
        let script = try String(contentsOf: Self.python, encoding: .utf8)
        let docs = try String(contentsOf: Self.docs, encoding: .utf8)
        #expect(docs.contains("```python\n" + script + "```"), "docs/emulator.md must show \(Self.python.lastPathComponent) verbatim")
        try await RunningEmulator.with { emulator in
            var environment = ProcessInfo.processInfo.environment
            environment["EMULATOR_URL"] = emulator.baseURL
            environment["ADMIN_TOKEN"] = Fixture.adminToken
            let run = try await SpawnedChild.python([Self.python.path, "-v"], environment: environment, deadline: .seconds(90))
            let output = run.outputText + run.errorText
            #expect(run.exit == .exited(0) && !run.timedOut, "\(output)")
            #expect(output.contains("Ran 2 tests") && output.contains("OK"), "\(output)")
        }
    }

    @Test("the Swift example: Apple's token endpoint fails once, the redemption is captured, the code still redeems")
    func swiftExample() async throws {
        try await RunningEmulator.with { emulator in
            // docs:begin
            let admin = [("Authorization", "Bearer \(Fixture.adminToken)"), ("Content-Type", "application/json")]
            let failure = #"{"kind": "token_server_error", "client_id": "com.example.app.web", "count": 1}"#
            #expect(try await emulator.post("/emulator/admin/failures", json: failure, headers: admin).status == 200)

            let page = try await WebFlow.signIn(emulator)
            let code = try #require(WebFlow.hiddenInputs(page.body)["code"])
            let client = try emulator.client()
            await #expect(throws: AppleIDClientError.self) {  // Apple answered 503
                try await client.exchangeCode(code, clientID: "com.example.app.web", redirectURI: URL(string: Fixture.redirectURI))
            }
            // The failure was used up, and the code was not spent: a retry succeeds.
            _ = try await client.exchangeCode(code, clientID: "com.example.app.web", redirectURI: URL(string: Fixture.redirectURI))

            let captured = try await emulator.get("/emulator/admin/requests?client_id=com.example.app.web", headers: admin)
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
        let docs = try String(contentsOf: Self.docs, encoding: .utf8)
        #expect(docs.contains(body), "docs/emulator.md must show the Swift example:\n\(body)")
    }
}

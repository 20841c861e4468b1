import AppleIDEmulator
import AppleSignIn
import Crypto
import Foundation
import JuiceTestSupport
import Testing

/// The fixture API examples of docs/emulator.md are real: the Python one (requests + unittest) runs
/// against a running emulator, and the Swift one is this file's `swiftExample`; the docs show both verbatim.
@Suite("docs/emulator.md's fixture API examples run", .serialized)
struct FixtureAPIExampleTests {
    @Test(
        "the Python example passes against the emulator, and docs/emulator.md shows it verbatim", .timeLimit(.minutes(2)),
        .enabled(if: BrowserTools.requests || BrowserTools.requireAll, "python3 with requests is missing (scripts/test installs it)"))
    func pythonExample() async throws {
        try await DocsPythonExample.check("fixture_api_example.py", tests: 2)
    }

    @Test("the Swift example: reset, seed, sign in, list the code, move the clock, and the code has expired")
    func swiftExample() async throws {
        try await RunningEmulator.with { emulator in
            // docs:begin
            let admin = [("Authorization", "Bearer \(Fixture.adminToken)"), ("Content-Type", "application/json")]
            func post(_ path: String, _ json: String) async throws -> HTTPResult {
                try await emulator.http.post("/emulator/admin/" + path, json: json, headers: admin)
            }
            #expect(try await post("reset", "{}").status == 200)
            #expect(try await post("seed", #"{"apple_ids": [{"email": "tester@example.net", "password": "pw"}]}"#).status == 200)

            let tester = EmulatorConfiguration.AppleID(email: "tester@example.net", password: "pw", firstName: "", lastName: "")
            let page = try await WebFlow.signIn(emulator, account: tester)
            let code = try #require(WebFlow.hiddenInputs(page.body)["code"])
            let issued = try await emulator.http.get("/emulator/admin/issued?bundle_id=com.example.app", headers: admin)
            let codes = issued.json?["codes"] as? [[String: Any]] ?? []
            #expect(codes.map { $0["digest"] as? String } == [SHA256.hash(data: Array(code.utf8)).map { String(format: "%02x", $0) }.joined()])

            #expect(try await post("clock", #"{"advance": 301}"#).status == 200)  // codes live five minutes
            let client = try emulator.client()
            await #expect(throws: AppleIDClientError.self) {
                try await client.exchangeCode(code, clientID: "com.example.app.web", redirectURI: URL(string: Fixture.redirectURI))
            }
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

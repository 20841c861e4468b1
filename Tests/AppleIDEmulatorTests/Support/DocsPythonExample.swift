import Foundation
import JuiceProcesses
import JuiceTestSupport
import Testing

/// A Python example of docs/emulator.md (requests + unittest, in `Tests/AppleIDEmulatorTests/Fixtures/`):
/// the docs must show it verbatim, and it must pass against a running emulator.
enum DocsPythonExample {
    static let docs = BrowserTools.repository.appendingPathComponent("docs/emulator.md")

    /// Checks that docs/emulator.md shows `file` verbatim, then runs it against an emulator; it must run `tests` tests, all OK.
    static func check(_ file: String, tests: Int) async throws {
        let python = BrowserTools.repository.appendingPathComponent("Tests/AppleIDEmulatorTests/Fixtures/" + file)
        let script = try String(contentsOf: python, encoding: .utf8)
        let docs = try String(contentsOf: Self.docs, encoding: .utf8)
        #expect(docs.contains("```python\n" + script + "```"), "docs/emulator.md must show \(file) verbatim")
        try await RunningEmulator.with { emulator in
            var environment = ProcessInfo.processInfo.environment
            environment["EMULATOR_URL"] = emulator.baseURL
            environment["ADMIN_TOKEN"] = Fixture.adminToken
            let run = try await SpawnedChild.python([python.path, "-v"], environment: environment, deadline: .seconds(90))
            let output = run.outputText + run.errorText
            #expect(run.exit == .exited(0) && !run.timedOut, "\(output)")
            #expect(output.contains("Ran \(tests) tests") && output.contains("OK"), "\(output)")
        }
    }
}

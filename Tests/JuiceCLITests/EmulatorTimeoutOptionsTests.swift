import Foundation
import JuiceTestSupport
import Testing

/// `juice emulator --http-idle-timeout / --http-header-timeout / --http-body-timeout` (issue 27, finding 4).
@Suite("juice emulator: HTTP timeout options are range-checked")
struct EmulatorTimeoutOptionsTests {
    @Test("an HTTP timeout of 0, past its limit or not a number stops start-up naming the option")
    func outOfRange() async throws {
        let temporary = try TemporaryDirectory("emulator-timeouts")
        defer { temporary.remove() }
        let config = temporary.file("emulator.json")
        try #"{"teams": [], "apps": [], "apple_ids": []}"#.write(to: config, atomically: true, encoding: .utf8)
        let base = ["emulator", "--port", "0", "--config", config.path, "--data-dir", temporary.file("data").path]
        for (option, value) in [("--http-idle-timeout", "0"), ("--http-header-timeout", "3601"), ("--http-body-timeout", "soon")] {
            let result = try await JuiceProcess.run(base + [option, value])
            #expect(result.status != 0, "\(option) \(value) was accepted")
            #expect(result.stderr.contains(option), "\(option): \(result.stderr)")
        }
    }
}

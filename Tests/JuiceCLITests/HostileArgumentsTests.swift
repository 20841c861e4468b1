import Foundation
import JuiceTestSupport
import Testing

@testable import juice

@Suite("Hostile command-line numbers: refused with a message and a non-zero exit, never a trap")
struct HostileArgumentsTests {
    @Test(
        "juice serve refuses --port and --emulator-port outside 0…65535",
        arguments: [
            ["--port", "70000"], ["--port", "-1"], ["--emulator-port", "65536"], ["--emulator-port", "-8081"],
            ["--port", "99999999999999999999999"],
        ])
    func servePorts(arguments: [String]) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-ports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await JuiceProcess.run(["serve", "--data-dir", directory.path] + arguments, timeout: .seconds(30))
        #expect(result.status == 64, "a usage error (EX_USAGE), not a crash: \(result.stderr.prefix(400))")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(result.stderr.contains(arguments[0]), "\(result.stderr.prefix(400))")
    }

    @Test("juice conformance refuses a --port outside 0…65535 (0: the kernel picks one)")
    func conformancePort() async throws {
        for port in ["70000", "-1"] {
            let result = try await JuiceProcess.run(
                [
                    "conformance", "--backend", "http://127.0.0.1:9", "--port", port, "--team-id", "ABCDE12345", "--key-id", "KEY1234567",
                    "--team-key", "/nonexistent.p8", "--client-id", "com.example.web", "--redirect-uri", "https://example.com/cb",
                ], timeout: .seconds(30))
            #expect(result.status == 64, "\(result.stderr.prefix(400))")
            #expect(result.stderr.contains("--port"), "\(result.stderr.prefix(400))")
        }
    }

    @Test("juice login refuses a --timeout outside 1…86400 seconds (a deadline that far away would overflow the clock)")
    func loginTimeout() async throws {
        for timeout in ["9223372036854775807", "0", "-5", "86401"] {
            let result = try await JuiceProcess.run(["login", "--timeout", timeout], timeout: .seconds(30))
            #expect(result.status == 64, "\(timeout): \(result.stderr.prefix(400))")
            #expect(result.stderr.contains("--timeout"))
        }
    }

    @Test(
        "a single-valued option given twice is a usage error, not its last value winning",
        arguments: [
            ["emulator", "--config", "a.json", "--data-dir", "/tmp/a", "--data-dir", "/tmp/b"],
            ["emulator", "--port", "0", "--port=8081", "--config", "a.json"],
            ["serve", "--data-dir", "/tmp/a", "--data-dir=/tmp/b"],
        ])
    func repeatedOption(arguments: [String]) async throws {
        let result = try await JuiceProcess.run(arguments, timeout: .seconds(30))
        #expect(result.status == 64, "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("is given more than once"), "\(result.stderr.prefix(400))")
    }

    @Test("a list option may repeat, and a value after -- is not an option")
    func repeatableOptions() {
        #expect(RepeatedOptionRule.firstRepeated(in: ["verify-token", "--audience", "a", "--audience=b", "t"]) == nil)
        #expect(RepeatedOptionRule.firstRepeated(in: ["login", "--password-stdin", "--", "--x", "--x"]) == nil)
        #expect(RepeatedOptionRule.firstRepeated(in: ["emulator", "--ready-json", "--ready-json"]) == "--ready-json")
    }
}

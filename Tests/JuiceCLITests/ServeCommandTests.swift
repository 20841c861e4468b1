import Foundation
import JuiceTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("juice serve")
struct ServeCommandTests {
    @Test(
        "with no configuration: development mode with the emulator, generated 0600 keys, URLs and demo login printed only once the app, the emulator and the relay all accept connections"
    )
    func developmentMode() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-serve-\(UUID().uuidString)")
        let port = try FreePort.pick()
        let emulatorPort = try FreePort.pick()
        let smtpPort = try FreePort.pick()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("juice-serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = JuiceProcess.executable
        process.arguments = [
            "serve", "--data-dir", dataDirectory.path, "--port", "\(port)", "--emulator-port", "\(emulatorPort)", "--public-url",
            "http://127.0.0.1:\(port)", "--emulator-smtp-port", "\(smtpPort)", "--log-level", "warning",
        ]
        process.standardOutput = handle
        process.standardError = handle
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("JUICE_") }
        try launch(process)
        defer {
            process.stop()
            try? handle.close()
        }
        var output = ""
        for _ in 0..<200 where !output.contains("Demo Apple ID") {
            try await Task.sleep(for: .milliseconds(100))
            output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        #expect(output.contains("http://127.0.0.1:\(port)"))
        #expect(output.contains("http://127.0.0.1:\(emulatorPort)"))
        #expect(output.contains("appleseed@juice.test / juice"))
        #expect(output.contains("Johnny Appleseed"))
        #expect(output.contains("smtp://127.0.0.1:\(smtpPort)"))
        for file in ["team-key.p8", "refresh-token.key", "juice.sqlite"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: dataDirectory.appendingPathComponent(file).path)
            #expect(attributes[.posixPermissions] as? Int == 0o600, "\(file) is owner-only")
        }
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("Sign in with Apple"))
        let (keys, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(emulatorPort)/auth/keys")!)
        #expect(String(decoding: keys, as: UTF8.self).contains("\"kty\""))
        let relay = LoopbackSocket.connected(toPort: smtpPort, receiveTimeout: 10)
        #expect(relay != nil, "the relay accepts connections once the banner is out")
        if let relay { close(relay) }
        process.stop()
        #expect(!((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("BEGIN PRIVATE KEY"))
    }

    @Test("a bad configuration stops start-up with every problem named, exit status 1")
    func badConfiguration() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("juice-\(UUID().uuidString).json")
        try #"{"client_id": "com.example.web", "team_id": "short", "public_url": "http://juice.example.com"}"#.write(
            to: file, atomically: true, encoding: .utf8)
        let result = try await JuiceProcess.run(["serve", "--config", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("team_id"))
        #expect(result.stderr.contains("public_url"))
        #expect(result.stderr.contains("refresh_token_key"))
        #expect(result.stderr.contains("key_id"))
    }
}

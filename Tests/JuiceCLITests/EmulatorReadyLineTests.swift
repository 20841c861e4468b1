import Foundation
import JuiceProcesses
import JuiceTestSupport
import Testing

@testable import juice

@Suite("juice emulator --ready-json: one machine-readable line with the ports the emulator really bound")
final class EmulatorReadyLineTests {
    let temporary: TemporaryDirectory

    init() throws { temporary = try TemporaryDirectory("emulator-ready") }
    deinit { temporary.remove() }

    @Test("the line names the URL and issuer the emulator uses: brackets for IPv6, --public-url and --issuer when given")
    func text() throws {
        let plain = try #require(ReadyLine.parse(EmulatorReadyLine.text(host: "127.0.0.1", publicURL: nil, issuer: nil, port: 4000, smtpPort: nil)))
        #expect(plain["ready"] as? Bool == true)
        #expect(plain["url"] as? String == "http://127.0.0.1:4000")
        #expect(plain["issuer"] as? String == "http://127.0.0.1:4000")
        #expect(plain["port"] as? Int == 4000)
        #expect(plain["smtp_port"] is NSNull)
        let ipv6 = try #require(ReadyLine.parse(EmulatorReadyLine.text(host: "::1", publicURL: nil, issuer: nil, port: 1, smtpPort: 2)))
        #expect(ipv6["url"] as? String == "http://[::1]:1")
        #expect(ipv6["smtp_port"] as? Int == 2)
        let proxied = try #require(
            ReadyLine.parse(
                EmulatorReadyLine.text(
                    host: "127.0.0.1", publicURL: "https://apple.test/", issuer: "https://appleid.apple.com", port: 5, smtpPort: nil)))
        #expect(proxied["url"] as? String == "https://apple.test")
        #expect(proxied["issuer"] as? String == "https://appleid.apple.com")
    }

    @Test("on port 0 the emulator prints the bound HTTP and SMTP ports once both listen, and answers at that URL")
    func portZero() async throws {
        let config = temporary.file("emulator.json")
        try #"{"teams": [], "apps": [], "apple_ids": []}"#.write(to: config, atomically: true, encoding: .utf8)
        let log = temporary.file("stdout.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try SpawnedChild.start(
            JuiceProcess.executable.path,
            ["emulator", "--port", "0", "--smtp-port", "0", "--ready-json", "--config", config.path, "--data-dir", temporary.file("data").path],
            standardIO: .file(log.path))
        defer { process.stopBlocking() }

        let ready = try await ReadyLine.wait(for: process, log: log)
        let port = try #require(ready["port"] as? Int)
        let smtpPort = try #require(ready["smtp_port"] as? Int)
        #expect(port > 0 && smtpPort > 0 && port != smtpPort)
        let url = try #require(ready["url"] as? String)
        #expect(url == "http://127.0.0.1:\(port)")
        let discovery = try await TestHTTP(timeout: .seconds(30)).get(url + "/.well-known/openid-configuration")
        #expect(discovery.status == 200)
        #expect(LoopbackSocket.connected(toPort: smtpPort, receiveTimeout: 5).map { close($0) } != nil, "the relay accepts connections")
        let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 1, "exactly one ready line")
    }
}

import Crypto
import Foundation
import JuiceProcesses
import JuiceTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("juice conformance as a command")
struct ConformanceCommandTests {
    /// `juice serve` configured (juice.json) to use the kit on `kitPort` as Apple, as a child process.
    final class JuiceBackend {
        let port: Int
        let kitPort: Int
        let directory: URL
        let keyPath: URL
        private(set) var child: SpawnedChild?
        var url: String { "http://127.0.0.1:\(port)" }
        var log: URL { directory.appendingPathComponent("serve.log") }

        init() throws {
            port = try FreePort.pick()
            kitPort = try FreePort.pick()
            let temporary = try TemporaryDirectory("conformance")
            directory = temporary.url
            keyPath = try temporary.writePrivate("AuthKey_KEYCONF001.p8", P256.Signing.PrivateKey().pemRepresentation)
        }

        /// Starts `juice serve --config juice.json --ready-json` and waits (bounded) for its ready line.
        func start() async throws {
            let kit = "http://127.0.0.1:\(kitPort)"
            let configuration: [String: Any] = [
                "public_url": url, "port": port, "database_url": "sqlite:" + directory.appendingPathComponent("juice.sqlite").path,
                "refresh_token_key": Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
                "client_id": "com.example.juice.web", "additional_client_ids": ["com.example.juice"], "team_id": "TEAMCONF01",
                "key_id": "KEYCONF001", "redirect_uri": url + "/auth/apple/callback", "private_key_path": keyPath.path,
                "apple_base_url": kit, "issuer": kit,
            ]
            let file = directory.appendingPathComponent("juice.json")
            try JSONSerialization.data(withJSONObject: configuration).write(to: file)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let child = try SpawnedChild.start(
                JuiceProcess.executable.path, ["serve", "--config", file.path, "--log-level", "warning", "--ready-json"],
                environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("JUICE_") }, standardIO: .file(log.path))
            self.child = child
            _ = try await ReadyLine.wait(for: child, log: log)
        }

        func stop() {
            child?.stopBlocking()
            try? FileManager.default.removeItem(at: directory)
        }

        func conformanceArguments(backend: String? = nil) -> [String] {
            [
                "conformance", "--backend", backend ?? url, "--port", "\(kitPort)", "--team-id", "TEAMCONF01", "--key-id", "KEYCONF001",
                "--team-key", keyPath.path, "--client-id", "com.example.juice.web", "--redirect-uri", url + "/auth/apple/callback",
                "--bundle-id", "com.example.juice", "--probe", "/api/me", "--native", "/api/auth/apple", "--native-nonce", "/api/auth/nonce",
                "--notifications", "/apple/notifications",
            ]
        }
    }

    @Test(
        "juice serve passes juice conformance: both real processes, every case PASSED (deletion SKIPPED: no --delete), exit 0, JSON, JUnit and HTML written"
    )
    func juicePassesItsOwnKit() async throws {
        let juice = try JuiceBackend()
        defer { juice.stop() }
        try await juice.start()
        let reportPath = juice.directory.appendingPathComponent("report.json")
        let junitPath = juice.directory.appendingPathComponent("report.xml")
        let htmlPath = juice.directory.appendingPathComponent("report.html")
        let result = try await JuiceProcess.run(
            juice.conformanceArguments() + ["--report", reportPath.path, "--junit", junitPath.path, "--html", htmlPath.path], timeout: .seconds(240))
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: reportPath)) as? [String: Any])
        #expect(report["failed"] as? Int == 0)
        #expect(report["warnings"] as? Int == 0)
        #expect(report["backend"] as? String == juice.url)
        let cases = try #require(report["cases"] as? [[String: Any]])
        #expect(cases.count >= 40)
        let notPassed = cases.filter { $0["verdict"] as? String != "PASSED" }.map {
            "\($0["id"] ?? ""): \($0["verdict"] ?? "") \($0["detail"] ?? "")"
        }
        #expect(notPassed.count == 1 && notPassed.first?.hasPrefix("account-deletion-revokes: SKIPPED") == true, "\(notPassed)")
        #expect(report["inconclusive"] as? Int == 0)
        let junit = try String(contentsOf: junitPath, encoding: .utf8)
        #expect(junit.contains("<testsuites"))
        #expect(!junit.contains("<failure"))
        let html = try String(contentsOf: htmlPath, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("@import"), "the HTML report must need no other file")
    }

    @Test(
        "--list-cases prints the catalogue (each case's id, flow, severity and reference) as text or JSON, with its version; nothing else is needed")
    func listCases() async throws {
        let text = try await JuiceProcess.run(["conformance", "--list-cases"], timeout: .seconds(60))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("juice conformance catalogue "))
        for id in ["sign-in", "web-issuer-drift", "web-keys-unavailable", "web-apple-unavailable", "web-apple-slow", "web-no-email", "key-rotation"] {
            #expect(text.stdout.contains("\n\(id)  ["), "\(id) missing")
        }
        let json = try await JuiceProcess.run(["conformance", "--list-cases", "--format", "json"], timeout: .seconds(60))
        #expect(json.status == 0, "\(json.stderr)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((listing["catalog"] as? String)?.isEmpty == false)
        let cases = try #require(listing["cases"] as? [[String: Any]])
        #expect(cases.count >= 45)
        #expect(cases.allSatisfy { Set($0.keys) == ["id", "flow", "checks", "expect", "severity", "fix", "reference"] })
        #expect(cases.allSatisfy { ($0["reference"] as? String)?.isEmpty == false })
        let bad = try await JuiceProcess.run(["conformance", "--list-cases", "--format", "yaml"], timeout: .seconds(60))
        #expect(bad.status != 0 && bad.stderr.contains("--format must be text or json"))
        let missing = try await JuiceProcess.run(["conformance", "--backend", "http://127.0.0.1:9"], timeout: .seconds(60))
        #expect(missing.status != 0 && missing.stderr.contains("--port"))
    }

    @Test("a backend that is not running: exit status 2 with the reason on stderr")
    func unreachableBackendExits2() async throws {
        let juice = try JuiceBackend()
        defer { juice.stop() }
        let result = try await JuiceProcess.run(juice.conformanceArguments(), timeout: .seconds(60))
        #expect(result.status == 2)
        #expect(result.stderr.contains("could not start"))
        #expect(result.stderr.contains("could not be reached"))
    }

    @Test("--port 0 --ready-json: the kit prints the port it bound before any case, waits (bounded) for the backend, then reports it")
    func portZeroReadyLine() async throws {
        let juice = try JuiceBackend()
        defer { juice.stop() }
        var arguments = juice.conformanceArguments()
        let portIndex = try #require(arguments.firstIndex(of: "--port"))
        arguments[portIndex + 1] = "0"
        let result = try await JuiceProcess.run(arguments + ["--ready-json", "--wait-for-backend", "1"], timeout: .seconds(60))
        #expect(result.status == 2, "the backend never answered: \(result.stderr.prefix(400))")
        #expect(result.stderr.contains("could not be reached"))
        let firstLine = try #require(result.stdout.split(separator: "\n").first)
        let ready = try #require(try JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Any])
        let port = try #require(ready["port"] as? Int)
        #expect(ready["ready"] as? Bool == true && (1...65535).contains(port))
        #expect(ready["url"] as? String == "http://127.0.0.1:\(port)" && ready["issuer"] as? String == "http://127.0.0.1:\(port)")
    }

    @Test("--api-only with --start, or without --native, or an unknown --native-body: exit status 2 with the reason")
    func apiOnlyRefusals() async throws {
        let juice = try JuiceBackend()
        defer { juice.stop() }
        let arguments = juice.conformanceArguments()
        let withoutNative = arguments.enumerated().filter { index, value in
            value != "--native" && (index == 0 || arguments[index - 1] != "--native")
        }.map(\.element)
        for (extra, base, reason) in [
            (["--api-only", "--start", "/auth/apple"], arguments, "--api-only and --start exclude each other"),
            (["--api-only"], withoutNative, "--api-only needs --native"),
            (["--native-body", "graphql"], arguments, "--native-body must be juice or rest-auth"),
        ] {
            let result = try await JuiceProcess.run(base + extra, timeout: .seconds(60))
            #expect(result.status == 2, "\(extra)")
            #expect(result.stderr.contains(reason), "\(extra): \(result.stderr)")
        }
    }

    @Test("a backend's text in a start error reaches stderr shown, not sent: escape sequences, BEL and a C1 CSI as \\u{…} (issue 48)")
    func startErrorIsTerminalEscaped() async throws {
        let juice = try JuiceBackend()
        defer { juice.stop() }
        let location =
            "http://127.0.0.1:\(juice.kitPort)/auth/authorize?state=s&redirect_uri=%1B%5B2J%1B%5D0%3Bpwned%07%C2%9B31m%E2%80%AEtxt"
        try await ScriptedHTTPServer.with(.redirect(status: 302, location: location)) { server in
            let result = try await JuiceProcess.run(juice.conformanceArguments(backend: server.url("")), timeout: .seconds(60))
            #expect(result.status == 2)
            #expect(!result.stderr.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) }, "\(result.stderr)")
            #expect(result.stderr.contains(#"\u{1B}[2J\u{1B}]0;pwned\u{7}\u{9B}31m\u{202E}txt"#), "\(result.stderr)")
        }
    }

    @Test("a team key that is not a key: exit status 2, and the file's content is not echoed")
    func badTeamKeyExits2() async throws {
        let juice = try JuiceBackend()
        defer { juice.stop() }
        try "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXZhbHVl\n-----END PRIVATE KEY-----\n".write(to: juice.keyPath, atomically: true, encoding: .utf8)
        let result = try await JuiceProcess.run(juice.conformanceArguments(), timeout: .seconds(60))
        #expect(result.status == 2)
        #expect(result.stderr.contains("team key"))
        #expect(!result.stderr.contains("c2VjcmV0LXZhbHVl"))
    }
}
